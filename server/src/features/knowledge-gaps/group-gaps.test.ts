import { describe, expect, it } from 'vitest';
import type { SentenceEncoder } from '../../providers/llm/local/sentence-encoder.js';
import { gapIdOf, groupGaps, keepsWords, normaliseQuestion, wordKey, type GapOccurrence } from './group-gaps.js';

const at = (question: string, conversationCreatedAt: number, conversationId = 'c'.repeat(24)): GapOccurrence =>
  ({ question, conversationId, conversationCreatedAt, askedAt: conversationCreatedAt + 1 });

/** Vectors by topic word: texts naming the same topic are alike (1), others orthogonal (0), as an encoder that rates siblings alike. */
const TOPICS = ['discount', 'deliver', 'parking'];
const fakeEncoder: SentenceEncoder = {
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Float32Array(TOPICS.length);
      const topic = TOPICS.findIndex((word) => text.toLowerCase().includes(word));
      if (topic >= 0) vector[topic] = 1;
      return vector;
    });
  },
};

describe('grouping unanswered questions', () => {
  it('treats case, punctuation, word endings and filler words as the same words', () => {
    expect(normaliseQuestion('  Do you sell GIFT-cards?! ')).toBe('do you sell gift cards');
    expect(wordKey('Do you sell gift cards?')).toBe(wordKey('do you sell a gift card'));
    expect(wordKey('Do you sell gift cards?')).not.toBe(wordKey('Do you sell parking permits?'));
  });

  it('groups by words without an encoder, most asked first, with an id from the first-asked words', async () => {
    const groups = await groupGaps('b'.repeat(24), [at('Do you sell gift cards?', 3), at('Can I buy a voucher?', 2), at('do you sell a gift card', 1)]);
    expect(groups.map((group) => group.occurrences.length)).toEqual([2, 1]);
    expect(groups[0]!.id).toBe(gapIdOf('b'.repeat(24), wordKey('Do you sell gift cards?')));
    expect(groups[0]!.id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('merges word groups of one meaning with an encoder, keeping every member id and the first-asked id', async () => {
    const chatbotId = 'b'.repeat(24);
    const groups = await groupGaps(chatbotId, [at('Is there a student discount?', 3), at('Do students get a discount?', 2), at('Where is parking?', 5)], fakeEncoder);
    expect(groups).toHaveLength(2);
    const discounts = groups.find((group) => group.occurrences.length === 2)!;
    expect(discounts.id).toBe(gapIdOf(chatbotId, wordKey('Do students get a discount?')));
    expect(new Set(discounts.memberIds)).toEqual(new Set([wordKey('Do students get a discount?'), wordKey('Is there a student discount?')].map((key) => gapIdOf(chatbotId, key))));
  });

  it('keeps apart questions that replace a subject word, however alike the encoder rates them', async () => {
    const groups = await groupGaps('b'.repeat(24), [at('Do you deliver on Sundays?', 1), at('Do you deliver on Saturdays?', 2)], fakeEncoder);
    expect(groups).toHaveLength(2);
    expect(keepsWords(wordKey('Is there a student discount?'), wordKey('Do students get a discount?'))).toBe(true);
    expect(keepsWords(wordKey('Do you deliver on Sundays?'), wordKey('Do you deliver on Saturdays?'))).toBe(false);
  });
});
