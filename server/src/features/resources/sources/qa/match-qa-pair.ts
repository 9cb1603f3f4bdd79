import { similarity, type SentenceEncoder } from '../../../../providers/llm/local/sentence-encoder.js';
import { RecentMap } from '../../../../providers/llm/local/recent-map.js';
import { groupsIn } from '../../../../providers/llm/local/synonyms.js';
import { contentStems, questionTerms, stem } from '../../../../providers/llm/local/text-terms.js';
import { sentencesOf } from '../../../../providers/llm/local/turn-meanings.js';
import type { IndexedQaPair } from './qa-pairs.repository.js';

/**
 * The sentence encoder's similarity from which a visitor's question is one of a pair's questions
 * (unless it swaps the pair's subject, {@link compareWords}). A wrong saved answer is worse than
 * none. Measured on two sets of invented pairs (10 pairs, 46 paraphrased and 50 off-topic
 * questions, kept out of the repository): by similarity alone off-topic questions reached 0.632
 * on the first set, but 0.79 on the second, which asks about a sibling subject ("What time is
 * checkout?" for "What time is check-in?"); with the word checks, at 0.65, 22 of 46 paraphrases
 * and none of the off-topic questions matched.
 */
export const QA_MEANING_THRESHOLD = 0.65;

/**
 * The similarity a match by meaning needs when none of the visitor's subject words is the pair
 * question's, its answer's or a thesaurus relative ("Is lunch available?" against "Is breakfast
 * included?" scored 0.678 on the second measured set).
 */
export const QA_MEANING_ONLY_THRESHOLD = 0.72;

/**
 * The word overlap (Dice of subject-word stems) from which a question matches without the encoder,
 * or beside it. Off-topic questions reached 0.67 ("how do I open an account?" against "When are you
 * open?"), so only near restatements pass. Synonyms are not credited: the thesaurus relates words
 * a saved answer must keep apart ("checkout" and "check-in").
 */
export const QA_WORDS_THRESHOLD = 0.8;

/** A pair chosen for a question, with the pair question it matched and how well. */
export interface QaMatch {
  pair: IndexedQaPair;
  question: string;
  score: number;
}

const normalised = (text: string) => text.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The stems of a text's subject words (frame words such as "name" or "type" left out). */
const subjectStems = (text: string) => new Set([...questionTerms(text)].filter(([, weight]) => weight >= 1).map(([stem]) => stem));

/** Subject terms of pair questions, kept per instance: the same questions are compared with every visitor question. */
const questionTermCache = new RecentMap<string, ReadonlyMap<string, number>>(100_000);

function termsOf(text: string): ReadonlyMap<string, number> {
  let terms = questionTermCache.get(text);
  if (!terms) questionTermCache.set(text, (terms = questionTerms(text)));
  return terms;
}

/** How much two questions share their subject words: 1 for the same words, 0 for none in common. */
export function wordOverlap(asked: string, question: string): number {
  const mine = termsOf(asked);
  const theirs = termsOf(question);
  const sum = [...mine.values(), ...theirs.values()].reduce((total, weight) => total + weight, 0);
  if (sum === 0) return normalised(asked) === normalised(question) ? 1 : 0;
  let shared = 0;
  for (const [term, weight] of theirs) shared += Math.min(mine.get(term) ?? 0, weight);
  return Math.min(1, (2 * shared) / sum);
}

/**
 * Words that say how the visitor relates to the subject rather than what it is ("Do you *give*
 * refunds?", "Is the shop dog *friendly*?"): a question that puts one of them in place of the pair
 * question's own ("allowed", "sell") still asks the same thing.
 */
const RELATION_WORDS = new Set(`
allow allowed available bring can come do does friendly get give have include included need offer
possible provide serve take want welcome
`.trim().split(/\s+/).map(stem));

/** Thesaurus groups a text uses, each as one key (the same for every member). */
const groupKeys = (text: string): string[] => groupsIn(text).map(({ used, others }) => [...used, ...others].sort().join('|'));

/** How a visitor's question stands to a pair question in words (see {@link compareWords}). */
export interface WordComparison {
  /** Some of the question's subject words kept, others replaced by the visitor's own ("dinner" for "breakfast"). */
  swapped: boolean;
  /** Some subject word of the visitor's is the question's, the answer's, or a thesaurus relative of the question's. */
  supported: boolean;
  /** The visitor names a subject of their own: a word that is none of those ("How far is the airport from the station?"). */
  adds: boolean;
}

/**
 * How a visitor's question stands to a pair question in words. A swapped subject ("Is dinner
 * included?" for "Is breakfast included?", "What time is checkout?" for "What time is check-in?")
 * asks about something else, though the sentence encoder rates the two very alike. A visitor word is
 * not their own when the pair's answer uses it ("Do you serve breakfast?" where the answer says
 * "served"), when it is a thesaurus relative of a word of the question ("pets" for "dogs"), or when
 * it only relates the visitor to the subject ({@link RELATION_WORDS}).
 */
export function compareWords(asked: string, question: string, answer: string): WordComparison {
  const theirs = subjectStems(question);
  const explained = new Set(contentStems(answer));
  // Words of either question whose thesaurus group the other question uses too ("kids", "children").
  const related = new Set<string>();
  const askedGroups = new Set(groupKeys(asked));
  for (const { used, others } of groupsIn(question)) {
    if (!askedGroups.has([...used, ...others].sort().join('|'))) continue;
    for (const member of [...used, ...others]) contentStems(member).forEach((word) => related.add(word));
  }
  related.forEach((word) => explained.add(word));
  const mine = subjectStems(asked);
  const subject = [...mine].filter((stem) => !RELATION_WORDS.has(stem));
  // A relation word anchors the two questions to each other ("included"), but is never the subject swapped.
  const shared = [...mine].some((stem) => theirs.has(stem));
  const ownWords = subject.some((stem) => !theirs.has(stem) && !explained.has(stem));
  const replaced = [...theirs].some((stem) => !RELATION_WORDS.has(stem) && !mine.has(stem) && !related.has(stem));
  return { swapped: shared && ownWords && replaced, supported: subject.some((stem) => theirs.has(stem) || explained.has(stem)), adds: ownWords };
}

/** The similarity a match by meaning needs: higher when no word of the visitor's supports it. */
const meaningThreshold = (words: WordComparison) => (words.supported ? QA_MEANING_THRESHOLD : QA_MEANING_ONLY_THRESHOLD);

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
 * encoder (at {@link QA_MEANING_THRESHOLD}, or {@link QA_MEANING_ONLY_THRESHOLD} without a word in common,
 * unless the message swaps the question's subject), and by
 * words (at {@link QA_WORDS_THRESHOLD}); the best scoring question wins. Without an encoder, or when
 * it fails, by words alone.
 */
export async function matchQaPair(pairs: readonly IndexedQaPair[], message: string, encoder?: SentenceEncoder): Promise<QaMatch | undefined> {
  if (pairs.length === 0 || !message.trim()) return undefined;
  const asked = askedTexts(message);
  const questions = pairs.flatMap((pair) => pair.questions.map((question) => ({ pair, question })));
  const vectors = encoder ? await encoder.embed([...asked, ...questions.map((entry) => entry.question)]).catch(() => undefined) : undefined;
  let byWords: QaMatch | undefined;
  let byMeaning: (QaMatch & { asked: string }) | undefined;
  // Linear in the pairs' questions; the word comparisons (thesaurus look-ups) run only for the few
  // questions that come near, so 1,000 pairs of 20 questions stay cheap on the request thread.
  questions.forEach(({ pair, question }, index) => {
    for (const [i, text] of asked.entries()) {
      const words = wordOverlap(text, question);
      // A restatement may drop a word of the question, never add a subject of its own.
      if (words >= QA_WORDS_THRESHOLD && (!byWords || words > byWords.score) && !compareWords(text, question, pair.answer).adds) byWords = { pair, question, score: words };
      const meaning = vectors ? similarity(vectors[i]!, vectors[asked.length + index]!) : 0;
      if (vectors && (!byMeaning || meaning > byMeaning.score)) byMeaning = { pair, question, score: meaning, asked: text };
    }
  });
  // The nearest question decides: when it asks about something else, a runner-up is no safer.
  const words = byMeaning && compareWords(byMeaning.asked, byMeaning.question, byMeaning.pair.answer);
  const meant = byMeaning && words && !words.swapped && byMeaning.score >= meaningThreshold(words)
    ? { pair: byMeaning.pair, question: byMeaning.question, score: byMeaning.score } : undefined;
  const best = byWords && (!meant || byWords.score >= meant.score) ? byWords : meant;
  return best;
}
