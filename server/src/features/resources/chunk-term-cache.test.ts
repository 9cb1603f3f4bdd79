import { describe, expect, it } from 'vitest';
import { parseTsvector } from './chunk-term-cache.js';

describe('parseTsvector', () => {
  it('reads each lexeme with its positions, weights dropped', () => {
    expect(parseTsvector("'50':3 'bowl':2,7B 'super':1,16383")).toEqual([['50', [3]], ['bowl', [2, 7]], ['super', [1, 16383]]]);
  });

  it('unquotes doubled quotes and escaped backslashes, and reads a lexeme stripped of positions with none', () => {
    expect(parseTsvector("'it''s':4 'a\\\\b':1,2,3 'stripped'")).toEqual([["it's", [4]], ['a\\b', [1, 2, 3]], ['stripped', []]]);
  });

  it('keeps spaces, colons and commas inside a quoted lexeme', () => {
    expect(parseTsvector("'a b':1,2 'c:d' 'e,f':3A 'g'''''")).toEqual([['a b', [1, 2]], ['c:d', []], ['e,f', [3]], ["g''", []]]);
  });

  it('reads an empty vector as no lexemes', () => {
    expect(parseTsvector('')).toEqual([]);
  });
});
