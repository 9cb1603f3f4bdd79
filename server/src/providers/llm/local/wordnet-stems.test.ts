import { describe, expect, it } from 'vitest';
import { stem } from './text-terms.js';
import { mergeSynonyms, wordnetSynonymStems } from './wordnet-stems.js';

describe('wordnetSynonymStems', () => {
  it('maps each subject word\'s stem to its synonyms\' stems, skipping stop words', async () => {
    const stems = await wordnetSynonymStems('Is the automobile included?');
    expect(stems.get(stem('automobile'))).toContain(stem('car'));
    expect(stems.has(stem('is'))).toBe(false);
  });

  it('merges two thesauri without repeating a stem', () => {
    const merged = mergeSynonyms(new Map([['a', ['b']]]), new Map([['a', ['b', 'c']], ['d', ['e']]]));
    expect(merged).toEqual(new Map([['a', ['b', 'c']], ['d', ['e']]]));
  });
});
