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
 * The end of a piece that is read for an abbreviation: longer than any abbreviation with its
 * initials. Reading the whole piece each time would cost time quadratic in a sentence that keeps
 * going ("Mr. Mr. Mr. …", "a?b?c?…" in a URL).
 */
const ABBREVIATION_TAIL_CHARS = 64;

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

/**
 * Text handed to the segmenter at once. V8's segment iterator costs time proportional to the
 * whole string at every step (measured: 50,000 short sentences in one string took 14 s, 100,000
 * took 33 s), so a long paragraph is segmented window by window.
 */
const SEGMENTER_WINDOW_CHARS = 2_048;
/** Where a window may end: after a sentence's closing punctuation and a space. */
const WINDOW_END = /[.!?。！？؟…]["'”’)\]]? /g;

/**
 * The sentence segments of `text`, as `Intl.Segmenter` gives them, with indexes into `text`; a
 * long text is cut into windows of at most {@link SEGMENTER_WINDOW_CHARS} after the last likely
 * sentence end (else the last space, else anywhere). A cut that is not a sentence end only splits
 * a piece that is over-long anyway ({@link MAX_SENTENCE_CHARS}); one after an abbreviation is
 * joined again like any other piece.
 */
function* segmentsOf(text: string, segmenter: Intl.Segmenter): Generator<{ segment: string; index: number }> {
  let start = 0;
  while (start < text.length) {
    let end = text.length;
    if (end - start > SEGMENTER_WINDOW_CHARS) {
      const window = text.slice(start, start + SEGMENTER_WINDOW_CHARS);
      let cut = -1;
      WINDOW_END.lastIndex = 0;
      for (let match = WINDOW_END.exec(window); match; match = WINDOW_END.exec(window)) cut = match.index + match[0].length;
      if (cut <= 0) cut = window.lastIndexOf(' ') + 1;
      end = start + (cut > 0 ? cut : SEGMENTER_WINDOW_CHARS);
    }
    for (const { segment, index } of segmenter.segment(text.slice(start, end))) yield { segment, index: start + index };
    start = end;
  }
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
  // The piece being built is flat.slice(pendingStart, end): no string grows by concatenation,
  // which would be copied again whenever its end is read.
  let pendingStart = 0;
  for (const { segment, index } of segmentsOf(flat, segmenter(options.locale ?? 'und'))) {
    const end = index + segment.length;
    // A piece ending in an abbreviation continues; so does one cut inside a word ("a.b?c=1" in a URL).
    const inWord = /[.?!]$/.test(segment) && end < flat.length;
    if (inWord || endsWithAbbreviation(flat.slice(Math.max(pendingStart, end - ABBREVIATION_TAIL_CHARS), end), flat.slice(end))) continue;
    const sentence = flat.slice(pendingStart, end).trim();
    if (sentence) sentences.push(sentence);
    pendingStart = end;
  }
  const last = flat.slice(pendingStart).trim();
  if (last) sentences.push(last);
  return sentences.flatMap((sentence) => splitLong(sentence, options.maxChars ?? MAX_SENTENCE_CHARS));
}
