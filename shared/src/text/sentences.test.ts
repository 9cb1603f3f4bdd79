import { describe, expect, it } from 'vitest';
import { splitParagraph } from './sentences.js';
import { parseBlocks } from './blocks.js';

describe('splitParagraph on long paragraphs', () => {
  it('splits a paragraph longer than one segmenter window exactly as its sentences, abbreviations joined across windows', () => {
    const sentences = Array.from({ length: 400 }, (_, i) => `Mr. Smith baked loaf number ${i} before dawn.`);
    expect(splitParagraph(sentences.join(' '))).toEqual(sentences);
  });

  it('splits 60,000 sentences in one paragraph in time linear in its length (the segmenter on the whole string took over 30 s)', () => {
    const paragraph = 'a? '.repeat(60_000);
    expect(splitParagraph(paragraph)).toHaveLength(60_000);
  }, 10_000);

  it('keeps a sentence that never ends as pieces of at most 400 characters, in time linear in its length', () => {
    const pieces = splitParagraph('Mr. '.repeat(250_000));
    expect(pieces.every((piece) => piece.length <= 400)).toBe(true);
    expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe('Mr. '.repeat(250_000).trim());
  }, 10_000);
});

describe('parseBlocks headings', () => {
  it('reads a heading line with a long run of spaces in time linear in its length (the old pattern backtracked cubically)', () => {
    const [block] = parseBlocks(`# Opening${' '.repeat(50_000)}hours`);
    expect(block).toMatchObject({ kind: 'heading', level: 1 });
  }, 10_000);

  it('drops a closing sequence of hashes but keeps a hash that belongs to the title', () => {
    expect(parseBlocks('## Prices ##\nBread is £3.')[0]).toMatchObject({ kind: 'heading', text: 'Prices' });
    expect(parseBlocks('## Learning C#\nA course.')[0]).toMatchObject({ kind: 'heading', text: 'Learning C#' });
  });
});
