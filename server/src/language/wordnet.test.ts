import { describe, expect, it } from 'vitest';
import { baseForms, wordnetSynonyms } from './wordnet.js';

describe('WordNet synonyms', () => {
  it('gives the synonyms of a word\'s commonest senses', async () => {
    expect(await wordnetSynonyms('automobile')).toContain('car');
    expect(await wordnetSynonyms('remainder')).toContain('balance');
  });

  it('finds a word by its base form', async () => {
    expect(baseForms('couches')).toContain('couch');
    expect(baseForms('purchased')).toContain('purchase');
    expect(await wordnetSynonyms('couches')).toContain('sofa');
  });

  it('leaves out rare senses, multi-word entries and names', async () => {
    // "run" has over fifty senses; a ladder in a stocking is one of its rarest.
    const synonyms = await wordnetSynonyms('run');
    expect(synonyms).toContain('operate');
    expect(synonyms).not.toContain('ladder');
    expect(synonyms.every((synonym) => /^\p{Ll}+$/u.test(synonym))).toBe(true);
  });

  it('has nothing for words WordNet does not know', async () => {
    expect(await wordnetSynonyms('qwzxv')).toEqual([]);
  });
});
