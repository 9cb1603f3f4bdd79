import { LEXICON, patternOf } from '../../../language/lexicon.js';
import { questionTerms } from './text-terms.js';
import { sentencesOf } from './turn-meanings.js';

/** A clause that asks ("can we bring…", "is there…"), not one telling the visitor's situation. */
const ASKS = patternOf(LEXICON.answerCues.asks);
/** A clause pointing back to what was said before it ("is that ok?"). */
const REFERS_BACK = patternOf(LEXICON.answerCues.refersBack);

/**
 * Subject words the asking part must hold of its own to be read alone: with fewer it leans on the
 * situation told beside it ("…with three nephews on a Sunday morning, is that ok?" asks about the nephews).
 */
const MIN_ASK_TERMS = 2;

/** A condition the question is asked under ("If the lift breaks down, how…"): part of the ask, not the visitor's situation. */
const CASE_START = patternOf(LEXICON.answerCues.caseStart);
/** Words joining a message's sentence to what came before ("and what…", "so how…"). */
const OPENING_JOINER = /^(?:and|so|but|ok|okay|then|also)\b[\s,]*/i;

/** Whether a clause asks something by its opening words ("can we…", "how…"). */
const opensAsking = (clause: string) => ASKS.test(clause.trim().replace(OPENING_JOINER, ''));

/**
 * A sentence without the clauses before its first asking one, when they tell the visitor's
 * situation: "we're driving down with two toddlers, is there somewhere to warm a bottle?" asks
 * from "is there".
 */
function askingClauses(sentence: string): string {
  const clauses = sentence.split(/,\s*|;\s*|\s+-\s+/);
  if (opensAsking(clauses[0]!) || CASE_START.test(clauses[0]!.trim())) return sentence;
  const first = clauses.findIndex((clause, index) => index > 0 && opensAsking(clause));
  return first > 0 ? clauses.slice(first).join(', ') : sentence;
}

/**
 * The part of a visitor's message that asks, when the message also tells the visitor's situation:
 * "We're driving down with two toddlers, is there somewhere to warm a bottle?" asks "is there
 * somewhere to warm a bottle?"; "Do you repair bikes? Mine has a flat tyre" asks the first
 * sentence. Its sentences that ask (a question mark, or opening as a question does), each from its
 * first asking clause. Undefined when the whole message asks, or when the asking part says too
 * little by itself ("…, is that ok?", whose "that" is the situation).
 */
export function askOf(message: string): string | undefined {
  const whole = message.trim();
  const asking = sentencesOf(whole).flatMap((sentence) => {
    const clauses = askingClauses(sentence);
    return /\?\s*$/.test(sentence) || opensAsking(sentence) || clauses !== sentence ? [clauses] : [];
  });
  const ask = asking.join(' ');
  if (asking.length === 0 || ask === whole) return undefined;
  const terms = questionTerms(ask).size;
  if (terms < MIN_ASK_TERMS || (REFERS_BACK.test(ask) && terms <= MIN_ASK_TERMS)) return undefined;
  return ask;
}
