import { describe, expect, it } from 'vitest';
import type { SentenceEncoder } from '../../../../providers/llm/local/sentence-encoder.js';
import { compareWords, matchQaPair, QA_MEANING_ONLY_THRESHOLD, QA_MEANING_THRESHOLD, wordOverlap } from './match-qa-pair.js';
import type { IndexedQaPair } from './qa-pairs.repository.js';

const pair = (id: string, questions: string[], answer: string): IndexedQaPair => ({ id, questions, answer, resourceId: 'r'.repeat(24), resourceName: 'Answers' });
const STATION = pair('a'.repeat(24), ['How far is the station?'], 'The station is a ten-minute walk down Quay Street.');
const COFFEE = pair('b'.repeat(24), ['Is coffee included?'], 'Coffee is served all day at no charge.');

/** An encoder whose texts have the given similarity to a reference direction (unknown texts are orthogonal to everything). */
function encoderOf(similarities: Record<string, number>, reference: string): SentenceEncoder {
  return {
    async embed(texts) {
      return texts.map((text) => {
        if (text === reference) return Float32Array.of(1, 0, 0);
        const cosine = similarities[text];
        return cosine === undefined ? Float32Array.of(0, 0, 1) : Float32Array.of(cosine, Math.sqrt(1 - cosine * cosine), 0);
      });
    },
  };
}

describe('matchQaPair without a sentence encoder', () => {
  it('matches a restatement of a pair question by its words, whatever the case and punctuation', async () => {
    const match = await matchQaPair([STATION, COFFEE], 'how far is the STATION', undefined);
    expect(match).toMatchObject({ pair: { id: STATION.id }, question: 'How far is the station?', score: 1 });
  });

  it('does not match a question that only shares some words', async () => {
    expect(await matchQaPair([STATION], 'How far is the airport from the station?', undefined)).toBeUndefined();
    expect(await matchQaPair([], 'How far is the station?', undefined)).toBeUndefined();
  });
});

describe('matchQaPair with a sentence encoder', () => {
  it('matches a paraphrase at the threshold by meaning, and not below it', async () => {
    const asked = 'Is it a long trip to the trains?';
    const near = encoderOf({ [asked]: QA_MEANING_ONLY_THRESHOLD + 0.01 }, STATION.questions[0]!);
    expect(await matchQaPair([STATION, COFFEE], asked, near)).toMatchObject({ pair: { id: STATION.id } });
    const far = encoderOf({ [asked]: QA_MEANING_ONLY_THRESHOLD - 0.01 }, STATION.questions[0]!);
    expect(await matchQaPair([STATION, COFFEE], asked, far)).toBeUndefined();
  });

  it('asks for more similarity when no word of the visitor\'s is the question\'s or the answer\'s', async () => {
    const between = (QA_MEANING_THRESHOLD + QA_MEANING_ONLY_THRESHOLD) / 2;
    const supported = 'How far is the station on foot?';
    expect(await matchQaPair([STATION], supported, encoderOf({ [supported]: between }, STATION.questions[0]!))).toBeDefined();
    const unsupported = 'Is it a long trip to the trains?';
    expect(await matchQaPair([STATION], unsupported, encoderOf({ [unsupported]: between }, STATION.questions[0]!))).toBeUndefined();
  });

  it('never answers a question that swaps the pair\'s subject, however alike the encoder finds them', async () => {
    const asked = 'Is tea included?';
    expect(await matchQaPair([COFFEE, STATION], asked, encoderOf({ [asked]: 0.95 }, COFFEE.questions[0]!))).toBeUndefined();
  });

  it('compares the question alone when the message tells something first', async () => {
    const message = 'We arrive by train on Friday. How far is the station?';
    const match = await matchQaPair([STATION], message, encoderOf({ 'We arrive by train on Friday.': 0.9 }, 'nothing'));
    expect(match?.pair.id).toBe(STATION.id);
  });

  it('falls back to words when the encoder fails', async () => {
    const failing: SentenceEncoder = { embed: async () => { throw new Error('stopped'); } };
    expect((await matchQaPair([STATION], 'How far is the station?', failing))?.pair.id).toBe(STATION.id);
    expect(await matchQaPair([STATION], 'Is it a long trip to the trains?', failing)).toBeUndefined();
  });
});

describe('compareWords', () => {
  it('sees a sibling subject put in place of the question\'s', () => {
    expect(compareWords('Is tea included?', 'Is coffee included?', COFFEE.answer)).toMatchObject({ swapped: true });
    expect(compareWords('How far is the airport?', 'How far is the station?', STATION.answer)).toMatchObject({ swapped: true });
  });

  it('does not count words the answer uses, thesaurus relatives or words that only relate the visitor to the subject', () => {
    expect(compareWords('Do you serve coffee?', 'Is coffee included?', COFFEE.answer)).toEqual({ swapped: false, supported: true, adds: false });
    expect(compareWords('Can I bring my puppy?', 'Are dogs welcome?', 'Dogs on a lead are welcome.')).toMatchObject({ swapped: false });
    expect(compareWords('Do you give refunds?', 'Do you offer refunds?', 'Yes, within 14 days.')).toMatchObject({ swapped: false });
  });
});

describe('wordOverlap', () => {
  it('is 1 for the same subject words and falls with every word one side has alone', () => {
    expect(wordOverlap('how far is the station', 'How far is the station?')).toBe(1);
    expect(wordOverlap('How far is the airport?', 'How far is the station?')).toBeCloseTo(0.5);
    expect(wordOverlap('Hello?', 'Where are you?')).toBe(0);
  });
});
