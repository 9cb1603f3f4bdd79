import { describe, expect, it } from 'vitest';
import { chunkSections, DEFAULT_CHUNK_OPTIONS, sectionHash, textPipelineKey, type TextPipeline } from './chunk-text.js';

const sentence = (i: number) => `Sentence number ${i} has exactly seven words.`;

describe('chunkSections', () => {
  it('cuts along sentences with overlap and never crosses a section', () => {
    const text = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkSections([{ provenance: { page: 1 }, units: [{ text }] }, { provenance: { page: 2 }, units: [{ text: 'Short page.' }] }], { targetWords: 21, overlapWords: 7 });
    expect(chunks.map((chunk) => chunk.provenance.page)).toEqual([1, 1, 1, 1, 1, 1, 2]);
    expect(chunks[0]!.content).toBe([0, 1, 2].map(sentence).join(' '));
    // The last sentence of a chunk opens the next one.
    expect(chunks[1]!.content).toBe([2, 3, 4].map(sentence).join(' '));
    expect(chunks.at(-1)!.content).toBe('Short page.');
  });

  it('gives chunks of timed units their time range', () => {
    const chunks = chunkSections([{ provenance: {}, units: [
      { text: 'First cue.', startSeconds: 1, endSeconds: 2 }, { text: 'Second cue.', startSeconds: 3, endSeconds: 4.5 },
    ] }]);
    expect(chunks).toEqual([{ content: 'First cue. Second cue.', provenance: { startSeconds: 1, endSeconds: 4.5 }, contentHash: expect.any(String) }]);
  });

  it('closes a chunk of timed units once it spans 30 s, so each is cited near its words', () => {
    // A cue every 5 s: 72 words over a minute, far below the word target.
    const units = Array.from({ length: 12 }, (_, i) => ({ text: sentence(i), startSeconds: i * 5, endSeconds: i * 5 + 4 }));
    const chunks = chunkSections([{ provenance: {}, units }]);
    expect(chunks.map((chunk) => [chunk.provenance.startSeconds, chunk.provenance.endSeconds])).toEqual([[0, 29], [20, 49], [40, 59]]);
    // At most 15 words of overlap: the last two cues of a chunk open the next one.
    expect(chunks[1]!.content.startsWith(`${sentence(4)} ${sentence(5)} ${sentence(6)}`)).toBe(true);
  });

  it('hashes a section by content and provenance', () => {
    const a = { provenance: { url: 'https://a/' }, units: [{ text: 'x' }] };
    expect(sectionHash(a)).toBe(sectionHash({ provenance: { url: 'https://a/' }, units: [{ text: 'x' }] }));
    expect(sectionHash(a)).not.toBe(sectionHash({ provenance: { url: 'https://b/' }, units: [{ text: 'x' }] }));
    expect(sectionHash(a)).not.toBe(sectionHash({ provenance: { url: 'https://a/' }, units: [{ text: 'y' }] }));
  });

  it('hashes the pipeline in: another chunk size, overlap or embeddings model changes every section hash', () => {
    const a = { provenance: {}, units: [{ text: 'x' }] };
    const hashUnder = (pipeline: TextPipeline) => sectionHash(a, textPipelineKey(pipeline));
    const base = hashUnder({ chunk: DEFAULT_CHUNK_OPTIONS });
    expect(sectionHash(a)).toBe(base);
    expect(hashUnder({ chunk: { ...DEFAULT_CHUNK_OPTIONS, targetWords: 120 } })).not.toBe(base);
    expect(hashUnder({ chunk: { ...DEFAULT_CHUNK_OPTIONS, overlapWords: 0 } })).not.toBe(base);
    expect(hashUnder({ chunk: DEFAULT_CHUNK_OPTIONS, embeddingModel: 'model-a' })).not.toBe(base);
    expect(hashUnder({ chunk: DEFAULT_CHUNK_OPTIONS, embeddingModel: 'model-a' })).not.toBe(hashUnder({ chunk: DEFAULT_CHUNK_OPTIONS, embeddingModel: 'model-b' }));
    expect(chunkSections([a], { targetWords: 50, overlapWords: 5 })[0]!.contentHash).toBe(hashUnder({ chunk: { targetWords: 50, overlapWords: 5 } }));
  });
});

describe('structured chunks', () => {
  it('keeps headings as a section path and as heading lines, never as sentence text', () => {
    const text = ['# FAQ', '', '## Opening hours', 'The Bristol shop is open from 10am.', '', '## Contact', 'Email hello@willowandwick.test for help.'].join('\n');
    const [chunk] = chunkSections([{ provenance: {}, units: [{ text }] }]);
    expect(chunk!.content).toBe('# FAQ\n## Opening hours\nThe Bristol shop is open from 10am.\n## Contact\nEmail hello@willowandwick.test for help.');
    expect(chunk!.provenance.section).toBe('FAQ › Opening hours');
  });

  it('starts a chunk cut inside a section with its heading path', () => {
    const body = Array.from({ length: 8 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkSections([{ provenance: {}, units: [{ text: `# Guide\n## Care\n${body}` }] }], { targetWords: 21, overlapWords: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.content.startsWith('# Guide\n## Care\n')).toBe(true);
  });
});
