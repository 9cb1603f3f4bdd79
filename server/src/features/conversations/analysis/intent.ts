import { tokenize } from './text-features.js';

/** What a visitor wanted, as the local analyser labels it. */
export type IntentLabel =
  | 'pricing' | 'purchase' | 'support' | 'complaint' | 'contact_request' | 'account' | 'information' | 'feedback' | 'greeting' | 'other';

/** Cue words per intent, in priority order (an earlier intent wins a tie). */
const CUES: ReadonlyArray<readonly [IntentLabel, RegExp]> = [
  ['complaint', /\b(complain\w*|unacceptable|refund\w*|terrible|awful|disappoint\w*|worst|scam)\b/],
  ['support', /\b(error\w*|bug\w*|broken|crash\w*|not working|doesn'?t work|won'?t|fail\w*|problem\w*|issue\w*|fix\w*|troubleshoot\w*|stuck|help me)\b/],
  ['pricing', /\b(price\w*|pricing|cost\w*|how much|fee\w*|quote\w*|discount\w*|cheap\w*|expensive|plan\w*|subscription\w*|billing)\b/],
  ['purchase', /\b(buy\w*|purchas\w*|order\w*|checkout|sign up|signup|trial|demo|book\w*|reserv\w*)\b/],
  ['contact_request', /\b(call me|contact me|email me|reach me|speak to|talk to|human|agent|representative|sales team|phone number)\b/],
  ['account', /\b(account\w*|password\w*|log ?in|sign ?in|username|profile|invoice\w*)\b/],
];

/**
 * Classifies the visitor's intent from their messages: counts cue phrases per intent and takes
 * the most frequent; questions without cues are `information`, thanks alone `feedback`.
 */
export function classifyIntent(visitorTexts: readonly string[], questions: readonly string[]): IntentLabel {
  const text = visitorTexts.join('\n').toLowerCase();
  let best: IntentLabel | undefined;
  let bestCount = 0;
  for (const [label, cue] of CUES) {
    const count = text.match(new RegExp(cue.source, 'g'))?.length ?? 0;
    if (count > bestCount) { best = label; bestCount = count; }
  }
  if (best) return best;
  if (questions.length > 0) return 'information';
  const words = tokenize(text);
  if (words.some((word) => ['thanks', 'thank', 'great', 'helpful', 'awesome'].includes(word))) return 'feedback';
  if (words.length > 0 && words.every((word) => ['hi', 'hello', 'hey', 'there', 'good', 'morning', 'afternoon', 'evening'].includes(word))) return 'greeting';
  return visitorTexts.length > 0 ? 'information' : 'other';
}
