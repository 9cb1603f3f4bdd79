import { similarity, type SentenceEncoder } from '../../../../providers/llm/local/sentence-encoder.js';
import { SYNONYM_CREDIT, synonymStems } from '../../../../providers/llm/local/synonyms.js';
import { questionTerms } from '../../../../providers/llm/local/text-terms.js';
import { sentencesOf } from '../../../../providers/llm/local/turn-meanings.js';
import type { IndexedQaPair } from './qa-pairs.repository.js';

/**
 * The sentence encoder's similarity from which a visitor's question is one of a pair's questions.
 * A wrong saved answer is worse than none, so it sits above every off-topic question measured: on
 * a set of 6 invented pairs, 30 paraphrases and 30 off-topic questions (several sharing a pair's
 * words: "how do I park my domain name?"), the most similar off-topic question scored 0.632 and at
 * 0.65 every match was right (precision 16/16, recall 16/30).
 */
export const QA_MEANING_THRESHOLD = 0.65;

/**
 * The word overlap (weighted Dice of subject-word stems, synonyms at their usual credit) from which
 * a question matches without the encoder, or beside it. Off-topic questions reached 0.67 ("how do I
 * open an account?" against "When are you open?"), so only near restatements pass.
 */
export const QA_WORDS_THRESHOLD = 0.8;

/** A pair chosen for a question, with the pair question it matched and how well. */
export interface QaMatch {
  pair: IndexedQaPair;
  question: string;
  score: number;
}

const normalised = (text: string) => text.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const total = (terms: ReadonlyMap<string, number>) => [...terms.values()].reduce((sum, weight) => sum + weight, 0);

/** How much two questions share their subject words: 1 for the same words, 0 for none in common. */
export function wordOverlap(asked: string, question: string): number {
  const mine = questionTerms(asked);
  const theirs = questionTerms(question);
  const sum = total(mine) + total(theirs);
  if (sum === 0) return normalised(asked) === normalised(question) ? 1 : 0;
  const synonyms = synonymStems(asked);
  let shared = 0;
  for (const [term, weight] of theirs) {
    const own = mine.get(term);
    if (own !== undefined) shared += Math.min(own, weight);
    else if ([...synonyms].some(([stem, alternatives]) => mine.has(stem) && alternatives.includes(term))) shared += SYNONYM_CREDIT * weight;
  }
  return Math.min(1, (2 * shared) / sum);
}

/**
 * What of a visitor's message is compared: the message, and when it tells something before its
 * question ("I'm coming by car tomorrow. Where can I park?"), the question alone too.
 */
function askedTexts(message: string): string[] {
  const sentences = sentencesOf(message);
  const last = sentences.at(-1);
  return sentences.length > 1 && last !== undefined && /\?\s*$/.test(last) ? [message, last] : [message];
}

/**
 * The saved answer whose questions the visitor's message asks, if any: by meaning with the sentence
 * encoder (at {@link QA_MEANING_THRESHOLD}), and by words (at {@link QA_WORDS_THRESHOLD}); the best
 * scoring question wins. Without an encoder, or when it fails, by words alone.
 */
export async function matchQaPair(pairs: readonly IndexedQaPair[], message: string, encoder?: SentenceEncoder): Promise<QaMatch | undefined> {
  if (pairs.length === 0 || !message.trim()) return undefined;
  const asked = askedTexts(message);
  const questions = pairs.flatMap((pair) => pair.questions.map((question) => ({ pair, question })));
  const vectors = encoder ? await encoder.embed([...asked, ...questions.map((entry) => entry.question)]).catch(() => undefined) : undefined;
  let best: QaMatch | undefined;
  questions.forEach(({ pair, question }, index) => {
    const words = Math.max(...asked.map((text) => wordOverlap(text, question)));
    const meaning = vectors ? Math.max(...asked.map((_, i) => similarity(vectors[i]!, vectors[asked.length + index]!))) : 0;
    const score = Math.max(words >= QA_WORDS_THRESHOLD ? words : 0, meaning >= QA_MEANING_THRESHOLD ? meaning : 0);
    if (score > 0 && (!best || score > best.score)) best = { pair, question, score };
  });
  return best;
}
