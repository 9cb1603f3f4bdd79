/**
 * A small thesaurus of the words visitors use for what a site's knowledge says another way: "send
 * it back" for returns, "Saturday" for "weekends", "big" for "large", "2FA" for "two-factor".
 * General service vocabulary (shops, hotels, software, councils), not any knowledge base's, and no
 * phrasing of a benchmark question: each group is words or phrases that stand for one another in a
 * question.
 * Retrieval searches a question's synonyms beside its words, and the local engine's ranking credits
 * a sentence holding a synonym of a question word at {@link SYNONYM_CREDIT}.
 */
import { LEXICON } from '../../../language/lexicon.js';
import { contentStems } from './text-terms.js';

/** The thesaurus's groups in its order (language/data/thesaurus.json records each section's language and reason). */
const GROUPS: string[][] = LEXICON.thesaurus.sections.flatMap((section) => section.sets);

/** The thesaurus's single words: the spelling check also reads a misspelt word as one of them ("clases" → "classes"). */
export const THESAURUS_WORDS: ReadonlySet<string> = new Set(GROUPS.flat().filter((member) => /^\p{L}+$/u.test(member)));

/** Credit of a sentence word that is a synonym of a question word, against the word itself. */
export const SYNONYM_CREDIT = 0.75;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A member as a pattern of whole words. A phrasal verb ending in "back" or "up" may hold its object
 * inside ("send my candle back", "pick the sofa up").
 */
function patternOf(member: string): RegExp {
  const particle = /^(\S+) (back|up)$/.exec(member);
  const body = particle ? `${escape(particle[1]!)}(?:\\s+[\\p{L}\\p{N}'-]+){0,2}\\s+${particle[2]}` : escape(member);
  return new RegExp(`(?<![\\p{L}\\p{N}-])${body}(?![\\p{L}\\p{N}-])`, 'iu');
}

/**
 * Each member's pattern, found by the member's first word. A pattern can match only where that word
 * is a whole word of the text, so a text runs only the patterns of its own words: V8 compiles a
 * pattern on its first two runs, and compiling all of them took over 200 ms of a busy event loop on
 * the first questions (issue 12), and looking at every member of every group for each question
 * cost 150 µs of a burst's busy loop per question.
 */
const BY_FIRST_WORD = new Map<string, { group: number; index: number; pattern: RegExp }[]>();
GROUPS.forEach((members, group) => members.forEach((member, index) => {
  const first = member.split(' ')[0]!;
  BY_FIRST_WORD.set(first, [...(BY_FIRST_WORD.get(first) ?? []), { group, index, pattern: patternOf(member) }]);
}));

/** What separates the whole words the patterns match: anything but letters, digits and hyphens. */
const SEPARATORS = /[^\p{L}\p{N}-]+/u;

/** The groups a text uses, in the thesaurus's order, each with the members it holds and the others, in the group's order. */
export function groupsIn(text: string): { used: string[]; others: string[] }[] {
  const normalised = text.normalize('NFKC').replace(/[‘’]/g, "'");
  // After NFKC, lower-casing folds every letter the patterns' case-insensitive match folds (the members are lower case, composed).
  const used = new Map<number, Set<number>>();
  for (const word of new Set(normalised.toLowerCase().split(SEPARATORS))) {
    for (const { group, index, pattern } of BY_FIRST_WORD.get(word) ?? []) {
      if (!pattern.test(normalised)) continue;
      let members = used.get(group);
      if (!members) used.set(group, (members = new Set()));
      members.add(index);
    }
  }
  return [...used.keys()].sort((a, b) => a - b).map((group) => {
    const members = GROUPS[group]!;
    const held = used.get(group)!;
    return { used: members.filter((_, index) => held.has(index)), others: members.filter((_, index) => !held.has(index)) };
  });
}

/**
 * The synonyms of a text's words and phrases, as words to search beside them ('' when none). Each
 * is a query term of its own, as in the usual query expansion: a chunk saying "returns" and
 * "refund" counts both (on the dev set, better than counting a group once, as its best member or
 * as one term of summed frequency).
 */
export function synonymsOf(text: string): string {
  return [...new Set(groupsIn(text).flatMap(({ others }) => others))].join(' ');
}

/** Words of the phrases above that say nothing on their own ("get" of "get in", "cost" of "spread the cost"). */
const GENERIC = new Set(LEXICON.thesaurus.genericPhraseWords.words);

/** The stems a member stands for: a word's own; a phrase's telling words ("check-in" → "check"). */
const stemsOf = (member: string) => {
  const stems = contentStems(member);
  return stems.length > 1 || /[\s-]/.test(member) ? stems.filter((stem) => !GENERIC.has(stem)) : stems;
};

/** For each stem of a question's words that has synonyms, the stems of those synonyms. */
export function synonymStems(question: string): Map<string, string[]> {
  const synonyms = new Map<string, string[]>();
  for (const { used, others } of groupsIn(question)) {
    const alternatives = [...new Set(others.flatMap(stemsOf))];
    for (const key of used.flatMap((member) => contentStems(member))) {
      const own = alternatives.filter((alternative) => alternative !== key);
      if (own.length > 0) synonyms.set(key, [...new Set([...(synonyms.get(key) ?? []), ...own])]);
    }
  }
  return synonyms;
}
