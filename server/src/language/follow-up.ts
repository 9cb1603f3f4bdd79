import { LEXICON, patternOf } from './lexicon.js';

const { continuation, anaphora, contrast, questionWords } = LEXICON.followUp;
/** Words that open a message continuing the previous question: "and at weekends?", "what about dogs?". */
const CONTINUATION = patternOf(continuation);
/** Words pointing back at something the conversation named: "what does that cost?", "is that per seat?". */
const ANAPHORA = patternOf(anaphora);
/** A message of at most this many words that points back is a follow-up; a longer one stands alone. */
const MAX_FOLLOW_UP_WORDS = 12;
/** Words that set a message against what came before, wherever they stand: "…on her birthday instead?", "…though?". */
const CONTRAST = patternOf(contrast);
/** A message of more words than this stands alone whatever it holds. */
const MAX_CONTRAST_WORDS = 20;
/** Subject words of a message that names nothing by itself ("how much?", "when?"). */
const QUESTION_WORDS = patternOf(questionWords);

/**
 * Whether the visitor's message only makes sense with the previous question: it continues it
 * ("and for a family room?"), points back at it in a few words ("what does that cost?", "can he
 * come to dinner?"), sets itself against it ("could it arrive on her birthday instead?"), or names
 * no subject at all ("when?"). "What time is check-out?" after a question about dogs stands alone.
 * Retrieval and the local engine then read the previous question with it.
 */
export function isFollowUp(message: string): boolean {
  const words = message.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  if (CONTINUATION.test(message)) return true;
  if (words.length <= MAX_FOLLOW_UP_WORDS && ANAPHORA.test(message)) return true;
  if (words.length <= MAX_CONTRAST_WORDS && CONTRAST.test(message)) return true;
  return message.replace(QUESTION_WORDS, ' ').replace(/[^\p{L}\p{N}]+/gu, ' ').trim() === '';
}
