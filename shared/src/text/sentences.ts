/** Abbreviations whose trailing period does not end a sentence (lower case, without the period). */
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'vs', 'etc', 'e.g', 'i.e', 'no', 'nos', 'fig', 'approx', 'incl',
  'inc', 'ltd', 'co', 'corp', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'u.s', 'u.k', 'a.m', 'p.m', 'ca', 'cf', 'vol', 'ed', 'gen', 'col', 'lt', 'sgt', 'rev', 'gov', 'sen', 'rep', 'tel', 'approx',
  'z.b', 'bzw', 'usw', 'ca', 'nr', 'str', 'mme', 'mlle', 'sra', 'sr', 'dra', 'núm', 'p',
  'd.h', 'u.a', 'inkl', 'ggf', 'evtl', 'vgl', 'sog', 'aprox', 'env',
]);

/**
 * Abbreviations that are also words ending a sentence ("art", "sec"): their period goes on only
 * before a number ("Art. 28 GDPR", "sec. 4", "ch. 3", "pp. 12-14").
 */
const BEFORE_NUMBER = new Set(['art', 'arts', 'sec', 'secs', 'para', 'paras', 'ch', 'chap', 'pt', 'pts', 'pp', 'abs', 'ziff', 'bd', 'pág', 'tit', 'rule', 'clause']);

/** Pieces longer than this are cut at clause boundaries, so an answer stays short. */
export const MAX_SENTENCE_CHARS = 400;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: string): Intl.Segmenter {
  let value = segmenters.get(locale);
  if (!value) {
    value = new Intl.Segmenter(locale, { granularity: 'sentence' });
    segmenters.set(locale, value);
  }
  return value;
}

/**
 * Whether a piece ends with an abbreviation or an initial ("Dr.", "e.g.", "J."), so the sentence
 * goes on; `rest` is the text after it.
 */
function endsWithAbbreviation(text: string, rest: string): boolean {
  const match = /(?:^|[\s(])((?:\p{L}\.)*\p{L}+)\.$/u.exec(text.trimEnd());
  if (!match?.[1]) return false;
  const word = match[1].toLowerCase();
  return ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(match[1]) || (BEFORE_NUMBER.has(word) && /^\s*\d/.test(rest));
}

/** Cuts a sentence longer than `max` characters at clause boundaries (; : and conjunctions), else at spaces. */
function splitLong(sentence: string, max: number): string[] {
  if (sentence.length <= max) return [sentence];
  const clauses = sentence.split(/(?<=[;:])\s+|(?<=,)\s+(?=(?:and|but|while|which|whereas|although)\b)/);
  const pieces: string[] = [];
  let current = '';
  const push = (piece: string) => {
    if (piece.length <= max) { pieces.push(piece); return; }
    // No clause boundary: cut at the last space before the limit.
    let rest = piece;
    while (rest.length > max) {
      const cut = rest.lastIndexOf(' ', max);
      const at = cut > max / 2 ? cut : max;
      pieces.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) pieces.push(rest);
  };
  for (const clause of clauses) {
    if (current && current.length + clause.length + 1 > max) {
      push(current);
      current = clause;
    } else {
      current = current ? `${current} ${clause}` : clause;
    }
  }
  if (current) push(current);
  return pieces;
}

export interface SplitOptions {
  /** BCP 47 locale for the segmenter (default: language-neutral rules). */
  locale?: string;
  /** Longest piece, in characters (default {@link MAX_SENTENCE_CHARS}). */
  maxChars?: number;
}

/**
 * Splits one paragraph of running text into sentences with the Unicode sentence rules
 * (`Intl.Segmenter`: e-mail addresses, URLs, decimals and non-Latin punctuation such as `؟` and
 * `。` are handled there), then joins pieces broken after an abbreviation or an initial, and cuts
 * over-long sentences at clause boundaries. Line breaks are treated as spaces: split structured
 * text into blocks first ({@link parseBlocks}).
 */
export function splitParagraph(paragraph: string, options: SplitOptions = {}): string[] {
  const flat = paragraph.replace(/\s+/g, ' ').trim();
  if (!flat) return [];
  const sentences: string[] = [];
  let pending = '';
  for (const { segment, index } of segmenter(options.locale ?? 'und').segment(flat)) {
    pending += segment;
    // A piece ending in an abbreviation continues; so does one cut inside a word ("a.b?c=1" in a URL).
    const inWord = /[.?!]$/.test(segment) && index + segment.length < flat.length;
    if (inWord || endsWithAbbreviation(pending, flat.slice(index + segment.length))) continue;
    const sentence = pending.trim();
    if (sentence) sentences.push(sentence);
    pending = '';
  }
  if (pending.trim()) sentences.push(pending.trim());
  return sentences.flatMap((sentence) => splitLong(sentence, options.maxChars ?? MAX_SENTENCE_CHARS));
}
