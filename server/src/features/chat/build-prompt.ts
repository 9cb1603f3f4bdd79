import type { ChatMessage, PersonalityType, ToneType } from '@parley/shared';
import { isFollowUp } from '../../language/follow-up.js';
import type { AnswerPrompt, ContextPassage, PromptMessage } from '../../providers/llm/answer-model.js';
import type { RetrievedChunk } from '../resources/retrieve-chunks.js';
import type { QaMatch } from '../resources/resources.service.js';
import { regionsOf } from '../../providers/llm/local/places.js';
import type { TurnKind } from '../../language/conversational-turn.js';

/** What shapes a chatbot's answers; a resource chat uses the defaults. */
export interface AnswerSettings {
  personalityType: PersonalityType;
  toneType: ToneType;
  customSystemPrompt: string | null;
  restrictAnswersToResourcesContentResponse: string | null;
}

/** The provider models see at most this many past messages; older turns rarely matter and cost tokens. */
const MAX_HISTORY_MESSAGES = 20;

const PERSONALITIES: Record<Exclude<PersonalityType, 'CUSTOM'>, string> = {
  ASSISTANT: 'You are a helpful assistant. Answer the visitor\'s questions clearly, accurately and concisely.',
  COACH: 'You are a supportive coach. Encourage the visitor and guide them step by step towards their goal.',
  ADVISOR: 'You are a trusted advisor. Weigh the options and give the visitor practical, well-reasoned recommendations.',
  EXPERT: 'You are a subject-matter expert. Give precise, thorough answers and use the correct terminology.',
};

const TONES: Record<Exclude<ToneType, 'CUSTOM'>, string> = {
  HUMOROUS: 'Use a light, humorous tone where it fits, without obscuring the facts.',
  FRIENDLY: 'Use a warm, friendly tone.',
  FORMAL: 'Use a formal, professional tone.',
};

function formatTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** A chunk's citation: its resource (or page title) and section, then page, URL or video time. */
export function toSourceLabel(chunk: Pick<RetrievedChunk, 'fileName' | 'provenance'>): string {
  const { page, url, title, section, startSeconds } = chunk.provenance ?? {};
  const parts = [section ? `${title ?? chunk.fileName} › ${section}` : title ?? chunk.fileName];
  if (page !== undefined) parts.push(`page ${page}`);
  if (url !== undefined && url !== parts[0]) parts.push(url);
  if (startSeconds !== undefined) parts.push(`at ${formatTime(startSeconds)}`);
  return parts.join(', ');
}

/**
 * A matched saved answer as the first passage, marked as the owner's answer: its text is the
 * answer as the owner wrote it, its citation names the pair (`pairId`) under its first question.
 */
export function toOwnerAnswerPassage(match: QaMatch): ContextPassage {
  const { pair } = match;
  const section = pair.questions[0] ?? match.question;
  return {
    content: pair.answer, source: `${pair.resourceName} › ${section} (the owner's saved answer)`, ownerAnswer: true,
    citation: { resourceId: pair.resourceId, title: pair.resourceName, section, pairId: pair.id },
  };
}

/** Chunks as the models see them. */
export function toPassages(chunks: readonly RetrievedChunk[]): ContextPassage[] {
  return chunks.map((chunk) => {
    const { title, section, page, url, startSeconds, pairId } = chunk.provenance ?? {};
    const citation = {
      resourceId: chunk.resourceId, title: title ?? chunk.fileName,
      ...(section ? { section } : {}), ...(page !== undefined ? { page } : {}), ...(url ? { url } : {}),
      ...(startSeconds !== undefined ? { timestampSec: startSeconds } : {}),
      // A saved answer found by retrieval rather than matched is still cited as its pair.
      ...(pairId ? { pairId } : {}),
    };
    return { content: chunk.content, source: toSourceLabel(chunk), citation };
  });
}

function systemPrompt(settings: AnswerSettings, passages: readonly ContextPassage[]): string {
  const custom = settings.personalityType === 'CUSTOM' && settings.toneType === 'CUSTOM' ? settings.customSystemPrompt : null;
  const lines = [
    custom ?? PERSONALITIES[settings.personalityType === 'CUSTOM' ? 'ASSISTANT' : settings.personalityType],
  ];
  if (!custom && settings.toneType !== 'CUSTOM') lines.push(TONES[settings.toneType]);
  const restrict = settings.restrictAnswersToResourcesContentResponse;
  if (restrict) {
    lines.push('Answer questions only from the context below; never from general knowledge.',
      `When the context does not contain the answer, reply exactly: ${JSON.stringify(restrict)}`);
  } else {
    lines.push('Prefer the context below when it is relevant. If it does not cover the question, you may answer from general knowledge and say so.');
  }
  lines.push(
    'Greetings, thanks, goodbyes, questions about who you are and requests to talk to a person are conversation, not questions: reply to them briefly and politely, without the context.',
    'Reply in the language of the visitor\'s message, even when the context is written in another: answer from the passages, translating what they say.',
    'Cite the passages you use by their number, like [1].', '');
  if (passages[0]?.ownerAnswer) {
    lines.push('Passage [1] is the owner\'s own answer to this question: answer with it, keeping its facts and wording '
      + '(translated when the visitor writes in another language), and cite [1].', '');
  }
  if (passages.length === 0) {
    lines.push('Context: none was found for this question.');
  } else {
    lines.push('Context:');
    passages.forEach((passage, index) => lines.push(`[${index + 1}] (source: ${passage.source})`, passage.content.trim(), ''));
  }
  return lines.join('\n').trim();
}

/**
 * The prompt of one chat turn: the system prompt from personality, tone, custom prompt, restrict
 * rule and the retrieved context with sources; the recent conversation as messages.
 */
export function buildPrompt(settings: AnswerSettings, conversation: readonly ChatMessage[], passages: ContextPassage[], turn?: TurnKind): AnswerPrompt {
  const messages: PromptMessage[] = conversation.slice(-MAX_HISTORY_MESSAGES)
    .map((message) => ({ role: message.fromUser ? 'user' : 'assistant', content: message.text }));
  // Providers want the conversation to open with the user; a welcome message from the chatbot is context only.
  while (messages[0]?.role === 'assistant') messages.shift();
  return {
    system: systemPrompt(settings, passages),
    messages,
    question: conversation.at(-1)?.text ?? '',
    passages,
    restrictResponse: settings.restrictAnswersToResourcesContentResponse ?? undefined,
    toneType: settings.toneType,
    ...(turn ? { turn } : {}),
  };
}

/**
 * What retrieval searches for: the last question, and for a follow-up ("and the price?",
 * {@link isFollowUp}) the previous question too, so the pronoun's subject is found; places bring
 * their regions.
 */
export function retrievalQuery(conversation: readonly ChatMessage[]): string {
  const question = conversation.at(-1)?.text ?? '';
  const previous = conversation.slice(0, -1).reverse().find((message) => message.fromUser);
  const query = previous && isFollowUp(question) ? `${previous.text} ${question}` : question;
  // "Germany" is found where the knowledge says "the EU".
  const regions = regionsOf(query);
  return regions ? `${query} ${regions}` : query;
}
