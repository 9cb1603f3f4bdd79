import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';
import { LEXICON, patternOf } from '../../../language/lexicon.js';
import type { ContextPassage } from '../answer-model.js';
import { THESAURUS_WORDS } from './synonyms.js';
import { tokenize } from './text-terms.js';

/**
 * English words (274,000, from the npm package `word-list`), read on first use: a word in it is
 * the visitor's own word, however rare ("passport" is not "password" misspelt).
 */
let english: Set<string> | undefined;
const englishWords = () => (english ??= new Set(readFileSync(wordListPath, 'utf8').split('\n')));

/** Reads the dictionary if it is not read yet (the instance's warm-up does, before visitors ask); how many words it holds. */
export function loadEnglishWords(): number {
  return englishWords().size;
}

/** Function words of the other languages visitors write without accents ("Konnen wir die Rechnung andern, wenn wir…"). */
const FOREIGN_WORDS = patternOf(LEXICON.answerCues.unaccentedForeign);

/** Shorter words are left alone: too many words lie one letter from each other ("cost" / "most"). */
const MIN_LENGTH = 5;
/** Two edits only for longer words, keeping their first three letters ("difuser" / "diffusers", not "midnite" / "minute"). */
const TWO_EDITS_LENGTH = 7;

/** Edits (a letter added, dropped, changed, or two swapped) from `a` to `b`, or `limit + 1` when more. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previous2[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** Whether `word` is `candidate` with letters left out. */
function isSubsequence(word: string, candidate: string): boolean {
  let i = 0;
  for (const letter of candidate) if (letter === word[i]) i++;
  return i === word.length;
}

/**
 * The question with its misspelt words written as the context writes them ("whats the wifi
 * pasword" → "whats the wifi password", "subscripton" → "subscription"). A word is taken as
 * misspelt when it is neither English, nor a name, nor in the context, and one edit from a word of
 * the context or the thesaurus (two for a long word, keeping its first letters); the nearest wins,
 * then one the word is with letters left out, then the most frequent in the context.
 */
export function correctSpelling(question: string, passages: readonly ContextPassage[]): string {
  // Only English is checked against an English dictionary: "chambre" is French, not "chamber" misspelt.
  if (/[^\x20-\x7E’‘“”£€–—]/.test(question) || (question.match(FOREIGN_WORDS)?.length ?? 0) >= 2) return question;
  // A capitalised word is a name ("Ofsted", "Europe"): it may be missing from the context, not misspelt.
  const names = new Set((question.match(/\b\p{Lu}\p{L}*/gu) ?? []).map((name) => name.toLowerCase()));
  const unknown = [...new Set(tokenize(question))]
    .filter((word) => word.length >= MIN_LENGTH && /^\p{L}+$/u.test(word) && !names.has(word) && !englishWords().has(word));
  if (unknown.length === 0) return question;
  // The context's words, and the thesaurus's (whose synonyms then find the context's own word).
  const counts = new Map<string, number>([...THESAURUS_WORDS].map((word) => [word, 0]));
  for (const passage of passages) for (const word of tokenize(passage.content)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const corrections = new Map<string, string>();
  for (const word of unknown) {
    if (counts.has(word)) continue;
    const limit = word.length >= TWO_EDITS_LENGTH ? 2 : 1;
    let best: { word: string; distance: number; dropped: boolean; count: number } | undefined;
    for (const [candidate, count] of counts) {
      const distance = editDistance(word, candidate, limit);
      if (distance > limit || (distance === 2 && !candidate.startsWith(word.slice(0, 3)))) continue;
      // Letters left out are the likeliest slip on a phone: "clases" is "classes" before "closes".
      const dropped = isSubsequence(word, candidate);
      if (!best || distance < best.distance || (distance === best.distance && (Number(dropped) - Number(best.dropped) || count - best.count) > 0)) {
        best = { word: candidate, distance, dropped, count };
      }
    }
    if (best) corrections.set(word, best.word);
  }
  if (corrections.size === 0) return question;
  return question.replace(/[\p{L}\p{N}]+/gu, (token) => corrections.get(token.toLowerCase().normalize('NFKC')) ?? token);
}
