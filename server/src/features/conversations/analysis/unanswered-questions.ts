import type { ChatMessage } from '@parley/shared';
import { classifyTurn } from '../../../language/conversational-turn.js';
import { clip, isQuestion, splitSentences } from './text-features.js';

/** How the chatbot is set up to answer, as far as unanswered questions are concerned. */
export interface AnsweringSetup {
  /** The chatbot's `restrictAnswersToResourcesContentResponse`: its answer when the resources hold nothing. */
  restrictText: string | null;
  /** How many passages of the chatbot's resources match a question; undefined when it has no resources. */
  countRelevant?: (question: string) => Promise<number>;
}

/** Replies that say the chatbot does not know (refusals and "not found" answers). */
const REFUSAL = new RegExp([
  String.raw`\bi (?:do not|don't|did not|didn't) (?:know|have (?:any |that |this |enough |the )?(?:information|details|data|answer))`,
  String.raw`\bi(?:'m| am) (?:not sure|unable to|afraid (?:i|that))`,
  String.raw`\bi (?:cannot|can't|can not|could not|couldn't) (?:find|answer|help with|tell|say)`,
  String.raw`\b(?:no|not find any|couldn't find any|could not find any) (?:relevant |specific )?(?:information|details|answer)`,
  String.raw`\b(?:isn't|is not|aren't|are not|not) (?:covered|mentioned|included) in`,
  String.raw`\boutside (?:of )?(?:my|the) (?:knowledge|scope|resources)`,
  String.raw`\bunable to (?:answer|find|help)`,
  String.raw`\bnothing (?:relevant|about (?:that|this))`,
  String.raw`\bcame back empty-handed`,
].join('|'), 'i');

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a reply says the chatbot could not answer: its restrict text, or a refusal. */
export function isNonAnswer(reply: string, restrictText: string | null): boolean {
  if (restrictText && normalise(reply) === normalise(restrictText)) return true;
  return REFUSAL.test(reply);
}

/**
 * Each visitor turn with the chatbot's reply to it (the message right after, if the chatbot's),
 * and whether it is a question. Conversation (greetings, thanks, a request for a person) is left out.
 */
function turnsWithReplies(messages: readonly ChatMessage[]): { question: string; asks: boolean; reply?: string }[] {
  const pairs: { question: string; asks: boolean; reply?: string }[] = [];
  messages.forEach((message, index) => {
    if (!message.fromUser || classifyTurn(message.text)) return;
    const next = messages[index + 1];
    pairs.push({ question: clip(message.text, 300), asks: splitSentences(message.text).some(isQuestion), reply: next && !next.fromUser ? next.text : undefined });
  });
  return pairs;
}

/** Retrieval is one query per question; long conversations are checked up to this many. */
const MAX_QUESTIONS_CHECKED = 25;

/**
 * What the visitor asked that the chatbot could not answer from its resources: every turn whose
 * reply is the chatbot's restrict text or reads like a refusal (question or not), and the
 * questions for which the resources hold no matching passage at all (retrieval). Distinct, in
 * conversation order.
 */
export async function findUnansweredQuestions(messages: readonly ChatMessage[], setup: AnsweringSetup): Promise<string[]> {
  const unanswered: string[] = [];
  for (const { question, asks, reply } of turnsWithReplies(messages).slice(-MAX_QUESTIONS_CHECKED)) {
    if (unanswered.includes(question)) continue;
    const refused = reply !== undefined && isNonAnswer(reply, setup.restrictText);
    if (refused || (asks && setup.countRelevant && await setup.countRelevant(question) === 0)) unanswered.push(question);
  }
  return unanswered;
}
