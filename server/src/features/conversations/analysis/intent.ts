import { tokenize } from './text-features.js';

/** What a visitor wanted, as the local analyser labels it. */
export type IntentLabel =
  | 'handoff' | 'complaint' | 'support' | 'shipping' | 'wholesale' | 'pricing' | 'purchase' | 'contact_request' | 'account'
  | 'information' | 'feedback' | 'greeting' | 'other';

/** Cue words per intent, in priority order (an earlier intent wins a tie). */
const CUES: ReadonlyArray<readonly [IntentLabel, RegExp]> = [
  ['handoff', /\b(?:speak|talk|chat) (?:to|with) (?:a |an |some )?(?:real |actual |live )?(?:human|person|someone|somebody|agent|representative|member of staff)|\breal person\b|\bhuman agent\b/],
  ['complaint', /\b(complain\w*|unacceptable|refund\w*|terrible|awful|disappoint\w*|worst|scam)\b/],
  ['support', /\b(error\w*|bug\w*|broken|crash\w*|not working|doesn'?t work|won'?t|fail\w*|problem\w*|issue\w*|fix\w*|troubleshoot\w*|stuck|help me)\b/],
  ['shipping', /\b(ship\w*|deliver\w*|postage|courier|dispatch\w*|tracking|parcel\w*|arriv\w*|send (?:it|them) to)\b/],
  ['wholesale', /\b(wholesale\w*|stockist\w*|trade account|reseller\w*|resell\w*|partner\w*|bulk order\w*|distribut\w*|retailer\w*|affiliate\w*)\b/],
  ['pricing', /\b(price\w*|pricing|cost\w*|how much|fee\w*|quote\w*|discount\w*|cheap\w*|expensive|plan\w*|subscription\w*|billing)\b/],
  ['purchase', /\b(buy\w*|purchas\w*|order\w*|checkout|sign up|signup|trial|demo|book\w*|reserv\w*)\b/],
  ['contact_request', /\b(call me|contact me|email me|reach me|call back|get back to me|sales team|phone number)\b/],
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
