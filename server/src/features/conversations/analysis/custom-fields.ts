import type { AnalysisCustomField } from '../../../config.js';
import { CONTACT_PATTERNS } from './contact-patterns.js';
import { clip, contentWords, splitSentences } from './text-features.js';

const NAME_PATTERN = /\b(?:my name is|my name's|i am|i'm|this is)\s+([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)/u;
// A currency amount; the number never ends in the sentence's own full stop or comma.
const AMOUNT_PATTERN = /(?:[$€£¥]\s?\d(?:[\d,.]*\d)?(?:\s?[kKmM]\b)?|\b\d(?:[\d,.]*\d)?\s?(?:[kKmM]\b|dollars|euros|pounds|usd|eur|gbp|per\s+\w+))/i;

/** The words of a field's name and description (camelCase and snake_case split). */
function fieldWords(field: AnalysisCustomField): Set<string> {
  const name = field.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return new Set(contentWords(`${name} ${field.description}`));
}

function mentions(words: Set<string>, ...cues: string[]): boolean {
  return cues.some((cue) => words.has(cue));
}

/** The visitor sentence sharing the most words with the field; undefined when none shares any. */
function bestSentence(sentences: readonly string[], words: Set<string>): string | undefined {
  let best: string | undefined;
  let bestOverlap = 0;
  for (const sentence of sentences) {
    const overlap = new Set(contentWords(sentence).filter((word) => words.has(word))).size;
    if (overlap > bestOverlap) { best = sentence; bestOverlap = overlap; }
  }
  return best;
}

function extractOne(field: AnalysisCustomField, text: string, sentences: readonly string[]): string | undefined {
  const words = fieldWords(field);
  if (mentions(words, 'email', 'mail', 'e-mail')) return text.match(CONTACT_PATTERNS.email)?.[0];
  if (mentions(words, 'phone', 'telephone', 'mobile', 'cell')) return text.match(CONTACT_PATTERNS.phone)?.[0]?.trim();
  if (mentions(words, 'url', 'website', 'site', 'link', 'domain')) return text.match(CONTACT_PATTERNS.url)?.[0];
  if (field.name.toLowerCase() === 'name' || mentions(words, 'fullname', 'firstname')) return text.match(NAME_PATTERN)?.[1];
  const sentence = bestSentence(sentences, words);
  if (sentence && mentions(words, 'budget', 'price', 'amount', 'cost', 'spend', 'salary', 'revenue')) {
    return sentence.match(AMOUNT_PATTERN)?.[0]?.trim() ?? clip(sentence, 300);
  }
  return sentence === undefined ? undefined : clip(sentence, 300);
}

/**
 * Offline extraction of the operator's custom fields from the visitor's messages: contact
 * details by pattern, a name from "my name is …", otherwise the visitor's sentence that best
 * matches the field's description. A field with nothing found is omitted.
 */
export function extractCustomFields(visitorTexts: readonly string[], fields: readonly AnalysisCustomField[]): Record<string, string> {
  const text = visitorTexts.join('\n');
  const sentences = visitorTexts.flatMap(splitSentences);
  const extracted: Record<string, string> = {};
  for (const field of fields) {
    const value = extractOne(field, text, sentences);
    if (value) extracted[field.name] = value;
  }
  return extracted;
}
