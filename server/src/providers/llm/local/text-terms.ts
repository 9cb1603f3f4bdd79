import { LEXICON } from '../../../language/lexicon.js';

/**
 * Word-level text analysis for the local engine: tokens, stop words and a light English stemmer.
 * Deliberately small and deterministic; ranking quality is measured by server/bench/chat-quality.bench.ts.
 */

const { stopWords, frameWords, ordinals } = LEXICON.stopWords;

/**
 * Words that name no subject: English function words and courtesies, the function words of the
 * other languages a knowledge base often has a section in (without them "de" would tie an answer
 * to every sentence), words of chat rather than of a subject ("pls", "btw") and stand-in nouns
 * ("something", "stuff"). Each group's reason is in language/data/stop-words.json.
 */
const STOP_WORDS = new Set(stopWords.flatMap((group) => group.words));

/** Words that frame a question rather than name its subject; they count, but little. */
const FRAME_WORDS = new Set(frameWords.words);

/** Lower-case word tokens (letters and digits), in order. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

/** How much a question word counts: frame words a fraction of a subject word. */
export function termWeight(token: string): number {
  return FRAME_WORDS.has(token) ? 0.25 : 1;
}

const DOUBLE_CONSONANT = /([bdfgkmnprt])\1$/;

const ARABIC = /[\u0600-\u06FF]/;
const HEBREW = /[\u0590-\u05FF]/;

/**
 * A light Arabic stemmer: the article and clitics in front (ال، و، ف، ب، ك، ل), an imperfect
 * verb's person prefix, and common plural, feminine and pronoun endings, keeping three letters at
 * least ("تشحنون" and "نشحن" both give "شحن").
 */
function arabicStem(token: string): string {
  let word = token.replace(/[\u064B-\u0652\u0640]/g, '');
  word = word.replace(/^(?:وال|فال|بال|كال|لل|ال)(?=.{3})/u, '').replace(/^[وف](?=.{3})/u, '');
  word = word.replace(/(?:ون|ين|ات|ان|ها|هم|كم|نا|ية|ة|ه|ي)$(?<=.{5})/u, '');
  if (word.length > 3) word = word.replace(/^[تينأ](?=.{3})/u, '');
  return word;
}

/** A light Hebrew stemmer: the one-letter prefixes ה, ו, ב, ל, כ (מ and ש begin too many words) and plural endings, keeping three letters. */
function hebrewStem(token: string): string {
  let word = token.replace(/[\u0591-\u05C7]/g, '');
  word = word.replace(/^[והבלכ](?=.{4})/u, '').replace(/^ה(?=.{4})/u, '');
  return word.replace(/(?:ים|ות)$(?<=.{5})/u, '');
}

/** Stems already worked out: the same words recur in every passage and question. Emptied when full. */
const stems = new Map<string, string>();
const MAX_STEMS = 100_000;

/** A light suffix-stripping stemmer: plurals, -ing, -ed (-ied as -y), -ly and a final e (Arabic and Hebrew their own). */
export function stem(token: string): string {
  let stemmed = stems.get(token);
  if (stemmed === undefined) {
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(token, (stemmed = stemOnce(token)));
  }
  return stemmed;
}

/** Ordinals written in figures, as the knowledge may spell them ("a 2nd car" for "Second vehicle"). */
const ORDINALS: Record<string, string> = ordinals.figures;

function stemOnce(token: string): string {
  const ordinal = ORDINALS[token];
  if (ordinal !== undefined) return stemOnce(ordinal);
  if (ARABIC.test(token)) return arabicStem(token);
  if (HEBREW.test(token)) return hebrewStem(token);
  let word = token;
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (/(ch|sh|x|z)es$/.test(word)) word = word.slice(0, -2);
  else if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) word = word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) word = word.slice(0, -3).replace(DOUBLE_CONSONANT, '$1');
  // "emptied" is "empty" as "empties" is.
  else if (word.endsWith('ied') && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (word.endsWith('ed') && word.length > 4) word = word.slice(0, -2).replace(DOUBLE_CONSONANT, '$1');
  if (word.endsWith('ly') && word.length > 5) word = word.slice(0, -2);
  if (word.endsWith('e') && word.length > 4) word = word.slice(0, -1);
  return word;
}

/** The stems of a text's non-stop words, in order (duplicates kept). */
export function contentStems(text: string): string[] {
  return tokenize(text).filter((token) => !isStopWord(token)).map(stem);
}

/**
 * "us" the pronoun ("can you make us sandwiches?") says nothing of the subject; "the US" does. Only
 * the capitals tell them apart, so a question's "us" counts when it is written "US".
 */
const namesTheUs = (text: string) => /\bUS\b/.test(text);

/** "How does … work?" asks how the subject works: the closing "work" is the question's frame, not its subject. */
const HOW_DOES_IT_WORK = /(\bhow\s+(?:do|does|did|would|will|can)\b.*)\bwork\s*[?.!]*\s*$/i;

/** Stem → weight of a question's subject words (the highest weight wins for repeated stems). */
export function questionTerms(text: string): Map<string, number> {
  const terms = new Map<string, number>();
  const pronounUs = !namesTheUs(text);
  // The pattern backtracks over the whole text: a question, not a pasted page.
  const framed = text.length <= 500 ? text.replace(HOW_DOES_IT_WORK, '$1') : text;
  for (const token of tokenize(framed)) {
    if (isStopWord(token) || (token === 'us' && pronounUs)) continue;
    const key = stem(token);
    terms.set(key, Math.max(terms.get(key) ?? 0, termWeight(token)));
  }
  return terms;
}
