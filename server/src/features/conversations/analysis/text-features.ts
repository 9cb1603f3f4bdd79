import { splitSentences as splitSharedSentences } from '@parley/shared';

/** Words that carry no topic: left out of keyword scores. */
const STOPWORDS = new Set((
  'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his how '
  + 'i if in into is it its just me more most my no nor not of on once only or other our ours out over own same she should so some '
  + 'such than that the their theirs them then there these they this those through to too under until up very was we were what when '
  + 'where which while who whom why will with would you your yours yes hi hello hey thanks thank please ok okay also about any all '
  + 'am im i\'m it\'s dont don\'t want need like get got know tell let us one'
).split(' '));

/** Lower-cased word tokens (letters, digits and inner apostrophes). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

/** Tokens that carry content: no stopwords, at least 3 characters or a number. */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((word) => !STOPWORDS.has(word) && (word.length >= 3 || /^\d+$/.test(word)));
}

/** Sentences of a message with the one shared splitter (structure-aware, e-mail addresses and URLs kept whole). */
export function splitSentences(text: string): string[] {
  return splitSharedSentences(text, { hardLineBreaks: true }).filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

const QUESTION_START = /^(what|how|why|when|where|who|whom|which|whose|can|could|would|will|do|does|did|is|are|was|were|should|may|might|have|has|tell me|explain|show me|describe)\b/i;
const REQUEST_START = /^(i need|i want|i'd like|i would like|i'm looking for|i am looking for|looking for|please)\b/i;

/** Whether a visitor's sentence is a question: a question mark or an interrogative opening. */
export function isQuestion(sentence: string): boolean {
  const trimmed = sentence.trim();
  return trimmed.endsWith('?') || QUESTION_START.test(trimmed);
}

/** Whether a visitor's sentence asks for something: a question or a request ("I need …"). */
export function isQuestionOrRequest(sentence: string): boolean {
  return isQuestion(sentence) || REQUEST_START.test(sentence.trim());
}

/** Shortens text to `max` characters at a word boundary, with an ellipsis. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Counts of each content word over several texts. */
export function termFrequencies(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const word of contentWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}
