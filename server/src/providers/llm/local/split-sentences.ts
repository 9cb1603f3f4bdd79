/** Abbreviations whose trailing period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'vs', 'etc', 'e.g', 'i.e', 'no', 'fig', 'approx',
  'inc', 'ltd', 'co', 'corp', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'u.s', 'u.k', 'a.m', 'p.m', 'ca', 'cf', 'vol', 'ed', 'gen', 'col', 'lt', 'sgt', 'rev', 'gov', 'sen', 'rep',
]);

/** Pieces longer than this are cut at clause boundaries so an answer stays short. */
const MAX_SENTENCE_CHARS = 400;

function endsWithAbbreviation(text: string): boolean {
  const match = /(?:^|[\s(])((?:[A-Za-z]\.)*[A-Za-z]+)\.$/.exec(text);
  if (!match?.[1]) return false;
  const word = match[1].toLowerCase();
  // Single capitals are initials ("J. R. R. Tolkien").
  return ABBREVIATIONS.has(word) || /^[a-z]$/.test(word);
}

function splitLong(sentence: string): string[] {
  if (sentence.length <= MAX_SENTENCE_CHARS) return [sentence];
  const clauses = sentence.split(/(?<=[;:])\s+|(?<=,)\s+(?=(?:and|but|while|which|whereas|although)\b)/);
  const pieces: string[] = [];
  let current = '';
  for (const clause of clauses) {
    if (current && current.length + clause.length + 1 > MAX_SENTENCE_CHARS) {
      pieces.push(current);
      current = clause;
    } else {
      current = current ? `${current} ${clause}` : clause;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * Splits text into sentences: at `.`, `!` or `?` followed by a space and an upper-case letter,
 * digit or quote (not after an abbreviation or initial), and at line breaks that separate
 * paragraphs or list items. Over-long sentences are cut at clause boundaries.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const block of text.split(/\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)|\r?\n(?=[A-Z#])/)) {
    const flat = block.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    const parts = flat.split(/(?<=[.!?]["'”’)\]]?)\s+(?=["'“‘([]?[\p{Lu}\p{N}])/u);
    let pending = '';
    for (const part of parts) {
      pending = pending ? `${pending} ${part}` : part;
      if (!endsWithAbbreviation(pending)) {
        sentences.push(...splitLong(pending));
        pending = '';
      }
    }
    if (pending) sentences.push(...splitLong(pending));
  }
  return sentences;
}
