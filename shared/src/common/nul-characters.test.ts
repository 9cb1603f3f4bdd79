import { describe, expect, it } from 'vitest';
import { formatIssues } from '../errors/format-issues.js';
import { nulCharacterIssues, stripNulCharacters } from './nul-characters.js';

describe('nulCharacterIssues', () => {
  it('names every field holding U+0000, nested or in arrays', () => {
    const issues = nulCharacterIssues({ name: 'a\0', ok: 'b', tags: ['x', '\0'], settings: { userAgent: '\0' } });
    expect(formatIssues(issues)).toEqual([
      'name must not contain NUL characters (U+0000)',
      'tags[1] must not contain NUL characters (U+0000)',
      'settings.userAgent must not contain NUL characters (U+0000)',
    ]);
  });

  it('walks a very deep value without overflowing the stack', () => {
    let deep: unknown = '\0';
    for (let level = 0; level < 20_000; level++) deep = [deep];
    expect(nulCharacterIssues(deep)).toHaveLength(1);
  });

  it('reports at most 20 issues and nothing for clean values', () => {
    expect(nulCharacterIssues(Array.from({ length: 1000 }, () => '\0'))).toHaveLength(20);
    expect(nulCharacterIssues({ a: ['b', 1, null, { c: true }] })).toEqual([]);
  });
});

describe('stripNulCharacters', () => {
  it('removes U+0000 and keeps the rest', () => {
    expect(stripNulCharacters('a\0b\0')).toBe('ab');
  });
});
