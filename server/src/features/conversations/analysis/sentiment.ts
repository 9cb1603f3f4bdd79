import { tokenize } from './text-features.js';

/** The sentiment labels the local analyser gives. */
export type SentimentLabel = 'positive' | 'negative' | 'neutral' | 'mixed';

const POSITIVE = new Set((
  'good great excellent amazing awesome perfect love loved lovely like liked helpful thanks thank appreciate appreciated '
  + 'happy glad pleased satisfied wonderful fantastic nice brilliant useful easy clear works worked working fast quick '
  + 'recommend best superb cool fine impressed delighted enjoy enjoyed solved fixed resolved'
).split(' '));

const NEGATIVE = new Set((
  'bad terrible awful horrible poor hate hated disappointed disappointing disappointment unhappy angry annoyed annoying '
  + 'frustrated frustrating useless broken fail failed fails failing failure error errors bug bugs wrong slow problem problems '
  + 'issue issues complaint complain refund cancel worst expensive confusing confused difficult hard stuck crash crashed '
  + 'crashes unacceptable rude missing lost waste scam never'
).split(' '));

const NEGATORS = new Set(['not', "don't", 'dont', "doesn't", "didn't", "isn't", "wasn't", "aren't", 'no', 'never', "can't", 'cannot', "won't", 'hardly']);

/** The lexicon score of one text: positive minus negative words, a negator flipping the next two words. */
export function sentimentScore(text: string): { positive: number; negative: number } {
  let positive = 0;
  let negative = 0;
  let flipFor = 0;
  for (const word of tokenize(text)) {
    if (NEGATORS.has(word)) { flipFor = 2; continue; }
    const polarity = POSITIVE.has(word) ? 1 : NEGATIVE.has(word) ? -1 : 0;
    const signed = flipFor > 0 ? -polarity : polarity;
    if (signed > 0) positive++;
    else if (signed < 0) negative++;
    if (flipFor > 0) flipFor--;
  }
  return { positive, negative };
}

/**
 * The visitor's overall sentiment from a word lexicon with negation: `mixed` when both sides
 * are strong, `neutral` when neither word list dominates.
 */
export function classifySentiment(visitorTexts: readonly string[]): SentimentLabel {
  let positive = 0;
  let negative = 0;
  for (const text of visitorTexts) {
    const score = sentimentScore(text);
    positive += score.positive;
    negative += score.negative;
  }
  if (positive === 0 && negative === 0) return 'neutral';
  if (positive >= 2 && negative >= 2 && Math.min(positive, negative) / Math.max(positive, negative) >= 0.5) return 'mixed';
  if (positive > negative) return 'positive';
  if (negative > positive) return 'negative';
  return 'mixed';
}
