import { createHash } from 'node:crypto';
import { contentStems } from '../../providers/llm/local/text-terms.js';
import { similarity, type SentenceEncoder } from '../../providers/llm/local/sentence-encoder.js';

/** One unanswered question of one conversation (from its analysis). */
export interface GapOccurrence {
  question: string;
  conversationId: string;
  /** When the conversation started (Unix ms): a closed gap reopens for conversations started after. */
  conversationCreatedAt: number;
  /** The conversation's last change (Unix ms): when it was last asked, as near as the analysis tells. */
  askedAt: number;
}

/** Questions of one meaning. */
export interface GapGroup {
  /** The group's stable id: that of its first-asked word group. */
  id: string;
  /** Ids of every word group in it: a closure of any of them closes the group (re-grouping keeps closures). */
  memberIds: string[];
  /** The word key of its first word group. */
  key: string;
  occurrences: GapOccurrence[];
}

/**
 * Two questions whose sentence vectors are at least this alike may ask the same thing. Measured on
 * 20 invented pairs with the lite encoder: paraphrases scored 0.53 to 0.89 ("Is there a student
 * discount?" / "Do students get a discount?" 0.877), but so did siblings of one subject ("Do you
 * deliver on Sundays?" / "… on Saturdays?" 0.943, "Can I bring my dog?" / "… my cat?" 0.836), and
 * the word checks of saved answers (`compareWords` in match-qa-pair.ts) relate those as thesaurus
 * relatives. So a merge by meaning also needs one question's subject words to hold the other's
 * ({@link keepsWords}): a wrong merge hides a question, a missed one only lists it twice.
 */
export const SAME_MEANING = 0.8;
/** Word groups compared by meaning, at most (the most asked): encoding is the cost. */
const MAX_ENCODED = 300;

/** Lower case, single spaces, no punctuation: the text two spellings of one question share. */
export function normaliseQuestion(text: string): string {
  return text.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The key of questions that use the same words: their content stems, sorted, without filler words. */
export function wordKey(text: string): string {
  const stems = [...new Set(contentStems(text))].sort();
  return stems.length > 0 ? stems.join(' ') : normaliseQuestion(text);
}

/** A 24-hex id for a chatbot's word group, the same on every call and instance. */
export function gapIdOf(chatbotId: string, key: string): string {
  return createHash('sha256').update(`${chatbotId}\n${key}`).digest('hex').slice(0, 24);
}

const firstAsked = (group: GapOccurrence[]) => Math.min(...group.map((o) => o.conversationCreatedAt));

/** Word groups of the occurrences, each with its id, most asked first. */
function byWords(chatbotId: string, occurrences: readonly GapOccurrence[]): GapGroup[] {
  const groups = new Map<string, GapOccurrence[]>();
  for (const occurrence of occurrences) {
    const key = wordKey(occurrence.question);
    const group = groups.get(key);
    if (group) group.push(occurrence);
    else groups.set(key, [occurrence]);
  }
  return [...groups].map(([key, members]) => ({ id: gapIdOf(chatbotId, key), memberIds: [gapIdOf(chatbotId, key)], key, occurrences: members }))
    .sort((a, b) => b.occurrences.length - a.occurrences.length || firstAsked(a.occurrences) - firstAsked(b.occurrences));
}

/** Whether one word key holds every subject word of the other: words added, none replaced. */
export function keepsWords(a: string, b: string): boolean {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const words = new Set(large.split(' '));
  return small.split(' ').every((word) => words.has(word));
}

/** Merges word groups whose most asked phrasings mean the same, greedily around the most asked ones. */
async function byMeaning(groups: GapGroup[], encoder: SentenceEncoder): Promise<GapGroup[]> {
  const compared = groups.slice(0, MAX_ENCODED);
  const vectors = await encoder.embed(compared.map((group) => representative(group.occurrences)), { cache: false });
  const merged: { seed: Float32Array; key: string; parts: GapGroup[] }[] = [];
  compared.forEach((group, index) => {
    const vector = vectors[index]!;
    const home = merged.find((cluster) => similarity(cluster.seed, vector) >= SAME_MEANING && keepsWords(cluster.key, group.key));
    if (home) home.parts.push(group);
    else merged.push({ seed: vector, key: group.key, parts: [group] });
  });
  return [...merged.map(({ parts }) => combine(parts)), ...groups.slice(MAX_ENCODED)];
}

/** One group of several word groups; its id is that of the first asked. */
function combine(parts: GapGroup[]): GapGroup {
  const first = [...parts].sort((a, b) => firstAsked(a.occurrences) - firstAsked(b.occurrences) || a.id.localeCompare(b.id))[0]!;
  return { id: first.id, memberIds: parts.flatMap((part) => part.memberIds), key: first.key, occurrences: parts.flatMap((part) => part.occurrences) };
}

/**
 * The phrasings of a group, most asked first (the latest asked of equals); each spelled as it was
 * first asked (one spelling stays, whatever case and punctuation later visitors use).
 */
export function phrasings(occurrences: readonly GapOccurrence[]): string[] {
  const counts = new Map<string, { text: string; count: number; first: number; last: number }>();
  for (const { question, askedAt } of occurrences) {
    const key = normaliseQuestion(question);
    const entry = counts.get(key) ?? { text: question, count: 0, first: askedAt, last: askedAt };
    entry.count += 1;
    if (askedAt < entry.first) Object.assign(entry, { text: question, first: askedAt });
    entry.last = Math.max(entry.last, askedAt);
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || b.last - a.last).map((entry) => entry.text);
}

const representative = (occurrences: readonly GapOccurrence[]) => phrasings(occurrences)[0] ?? '';

/**
 * Groups unanswered questions: by their words (normalised text, stems, no filler words), then,
 * with an encoder, the word groups whose meanings are close and whose words one holds the other's.
 * Most asked first.
 */
export async function groupGaps(chatbotId: string, occurrences: readonly GapOccurrence[], encoder?: SentenceEncoder): Promise<GapGroup[]> {
  const words = byWords(chatbotId, occurrences);
  const groups = encoder && words.length > 1 ? await byMeaning(words, encoder) : words;
  return groups.sort((a, b) => b.occurrences.length - a.occurrences.length);
}
