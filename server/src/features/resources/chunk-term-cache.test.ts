import { describe, expect, it } from 'vitest';
import { parseTsvector } from './chunk-term-cache.js';

describe('parseTsvector', () => {
  it('reads each lexeme with its number of positions', () => {
    expect(parseTsvector("'50':3 'bowl':2,7B 'super':1")).toEqual([['50', 1], ['bowl', 2], ['super', 1]]);
  });

  it('unquotes doubled quotes and escaped backslashes, and counts a lexeme without positions once', () => {
    expect(parseTsvector("'it''s':4 'a\\\\b':1,2,3 'stripped'")).toEqual([["it's", 1], ['a\\b', 3], ['stripped', 1]]);
  });

  it('keeps spaces, colons and commas inside a quoted lexeme', () => {
    expect(parseTsvector("'a b':1,2 'c:d' 'e,f':3A 'g'''''")).toEqual([['a b', 2], ['c:d', 1], ['e,f', 1], ["g''", 1]]);
  });

  it('reads an empty vector as no lexemes', () => {
    expect(parseTsvector('')).toEqual([]);
  });
});
