/**
 * Word-level text analysis for the local engine: tokens, stop words and a light English stemmer.
 * Deliberately small and deterministic; ranking quality is measured by server/bench/chat-quality.bench.ts.
 */

const STOP_WORDS = new Set(`
a about above after again against all am an and any are aren as at be because been before being below
between both but by can cannot could couldn did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his how i if in into is
isn it its itself just let me more most must my myself no nor not of off on once only or other ought our
ours ourselves out over own same shan she should shouldn so some such than that the their theirs them
themselves then there these they this those through to too under until up very was wasn we were weren
what when where which while who whom whose why will with won would wouldn you your yours yourself
yourselves s t d ll m re ve also may might shall tell please thanks thank hi hello hey does did
`.trim().split(/\s+/));

/**
 * Function words of the other languages a knowledge base often has a section in (French, German,
 * Spanish, Arabic, Hebrew): without them, "إلى" or "de" would tie an answer to every sentence.
 */
const OTHER_STOP_WORDS = `
le la les un une des du de d l au aux et ou en à a dans sur pour par avec est sont il elle ils elles nous vous on ce
cette ces qui que quoi quel quelle quels quelles se sa son ses leur leurs mon ma mes ne pas y faut peut combien ça cela
quand où comment pourquoi
der das den dem des ein eine einen einem einer und oder in im am an auf für mit von zu zum zur ist sind
ich du er sie es wir ihr kann können auch nicht wie was wo wann welche welcher welches unsere unser ihre viel viele
el los las una unos unas y o en por para es que qué cómo cuál cuándo dónde se su sus al del lo con sin un como pero más muy cuánto cuánta
cuántos cuántas
este esta estos estas hay mi mis tu tus nos le les
في من إلى على عن مع هل ما ماذا متى أين كيف هذا هذه ذلك التي الذي هو هي نحن أنتم أن لا لم لن قد كل أو ثم
של את על עם אל מה מתי איפה איך האם זה זו הוא היא אנחנו אתם לא כן גם או כל יש אין
`.trim().split(/\s+/);
for (const word of OTHER_STOP_WORDS) STOP_WORDS.add(word);

/**
 * Words of chat rather than of a subject: how visitors address a site ("do you guys take Amex?")
 * and fill a message ("pls", "btw", "ok so"). A knowledge base never holds them, so as subject
 * words they counted as the question's missing half and a plain on-topic question was refused.
 */
const CHAT_WORDS = `
guys folks yall ya u ur pls plz btw lol um uh hmm ok okay kindly wondering wondered curious
`.trim().split(/\s+/);
for (const word of CHAT_WORDS) STOP_WORDS.add(word);

/**
 * Indefinite pronouns and stand-in nouns: "can I return something?", "is there any animal stuff
 * in it?". They stand for the subject instead of naming it, so a knowledge base rarely holds them
 * and, as subject words, they counted as the question's missing half.
 */
const VAGUE_WORDS = `
something anything everything nothing someone anyone everyone somebody anybody everybody somewhere
anywhere everywhere thing things stuff
`.trim().split(/\s+/);
for (const word of VAGUE_WORDS) STOP_WORDS.add(word);

/** Words that frame a question rather than name its subject; they count, but little. */
const FRAME_WORDS = new Set(`
name named called call type kind sort term word many much one ones use used using example
`.trim().split(/\s+/));

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
const ORDINALS: Record<string, string> = {
  '1st': 'first', '2nd': 'second', '3rd': 'third', '4th': 'fourth', '5th': 'fifth', '6th': 'sixth', '7th': 'seventh', '8th': 'eighth', '9th': 'ninth', '10th': 'tenth',
};

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
