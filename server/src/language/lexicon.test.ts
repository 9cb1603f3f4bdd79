import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEXICON, patternOf } from './lexicon.js';

const DATA = fileURLToPath(new URL('./data/', import.meta.url));
/** An ISO 639-1 code, or "mul" for a group of many languages. */
const LANGUAGE = /^(?:[a-z]{2}|mul)$/;
/** The keys that hold a word list or a pattern. */
const LISTS = ['words', 'sets', 'texts', 'places', 'source', 'figures'];

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** "<where>: <problem>" for each list or pattern lacking a reason, or a language on it or around it. */
function problems(value: Json, where: string, language?: Json): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => problems(item, `${where}[${i}]`, language));
  if (value === null || typeof value !== 'object') return [];
  const own = value.language ?? value.languages ?? language;
  const found: string[] = [];
  if (LISTS.some((key) => key in value)) {
    if (typeof value.why !== 'string' || value.why.length < 10) found.push(`${where}: no reason`);
    const codes = Array.isArray(own) ? own : [own];
    if (own === undefined || !codes.every((code) => typeof code === 'string' && LANGUAGE.test(code))) found.push(`${where}: no language`);
  }
  return [...found, ...Object.entries(value).flatMap(([key, item]) => problems(item, `${where}.${key}`, own))];
}

describe('the language layer\'s data', () => {
  const files = fs.readdirSync(DATA).filter((name) => name.endsWith('.json'));

  it('gives every word list and pattern its language and a reason', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const file of files) {
      const data = JSON.parse(fs.readFileSync(path.join(DATA, file), 'utf8')) as Json;
      expect(problems(data, file)).toEqual([]);
    }
  });

  it('finds a list without a reason or a language', () => {
    expect(problems({ groups: [{ language: 'en', words: ['a'] }, { why: 'General words of a kind.', words: ['b'] }] }, 'x.json'))
      .toEqual(['x.json.groups[0]: no reason', 'x.json.groups[1]: no language']);
  });

  it('holds patterns that compile, and words in lower case', () => {
    expect(patternOf(LEXICON.followUp.continuation).test('and on Sundays?')).toBe(true);
    for (const group of LEXICON.stopWords.stopWords) for (const word of group.words) expect(word).toBe(word.toLowerCase());
    for (const section of LEXICON.thesaurus.sections) for (const set of section.sets) expect(set.length).toBeGreaterThan(1);
  });
});
