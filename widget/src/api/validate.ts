import type {
  AnswerMeta, ChatMessage, ChatSource, EmbedConfig, EmbedConversation, EmbedSession, ErrorBody, Feedback, Lead, StreamingEvent,
} from '@parley/shared';

// Hand-written checks of the server's answers, typed by shared's zod-inferred types. Importing
// the zod schemas themselves would add ~15 kB gzip to a widget whose budget is 35 kB, so the
// widget mirrors them here (import type only) and shared's tests pin the wire shapes.

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isInt = (value: unknown): value is number => Number.isInteger(value);
const isBool = (value: unknown): value is boolean => typeof value === 'boolean';
const isOptional = (value: unknown, check: (v: unknown) => boolean) => value === undefined || check(value);
const isArrayOf = (value: unknown, check: (v: unknown) => boolean) => Array.isArray(value) && value.every(check);
const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const isColor = (value: unknown): value is string => isString(value) && COLOR.test(value);
const isId = (value: unknown): value is string => isString(value) && /^[0-9a-f]{24}$/.test(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The embed config, or `undefined` when the answer does not have its shape. */
export function parseEmbedConfig(value: unknown): EmbedConfig | undefined {
  if (!isObject(value)) return undefined;
  const v = value;
  const ok = isId(v.id) && isString(v.name) && isString(v.welcomeMessage)
    && (v.accessLevel === 'PUBLIC' || v.accessLevel === 'PRIVATE' || v.accessLevel === 'PROTECTED')
    && isColor(v.chatbotMessageColor) && isColor(v.userMessageColor)
    && isColor(v.conversationBackgroundColor) && isColor(v.secondaryBackgroundColor)
    && isOptional(v.gradientColors, (g) => isArrayOf(g, isColor) && (g as unknown[]).length === 4)
    && isBool(v.showBadge) && isBool(v.enabledEmoji) && isOptional(v.avatarUrl, isString)
    && (v.bubbleAlignment === 'left' || v.bubbleAlignment === 'right')
    && isArrayOf(v.bubblePopupMessages, isString)
    && isOptional(v.welcomeHeaderTitle, isString) && isOptional(v.welcomeHeaderSubtitle, isString)
    && isOptional(v.locale, isString) && isOptional(v.suggestedQuestions, (q) => isArrayOf(q, isString))
    && isOptional(v.leadOfferAfterTurns, isInt);
  return ok ? (v as EmbedConfig) : undefined;
}

/** A session token answer. */
export function parseEmbedSession(value: unknown): EmbedSession | undefined {
  return isObject(value) && isString(value.token) && isInt(value.expiresAt) ? (value as EmbedSession) : undefined;
}

const isMessage = (value: unknown): value is ChatMessage => isObject(value) && isString(value.text) && isBool(value.fromUser);

/** A saved visitor conversation with its visitorToken. */
export function parseEmbedConversation(value: unknown): EmbedConversation | undefined {
  if (!isObject(value)) return undefined;
  const ok = isId(value.id) && isId(value.chatbot) && isInt(value.createdAt) && isArrayOf(value.messages, isMessage)
    && isObject(value.source) && isString(value.source.type) && isString(value.visitorToken);
  return ok ? (value as EmbedConversation) : undefined;
}

/** A captured lead. */
export function parseLead(value: unknown): Lead | undefined {
  if (!isObject(value)) return undefined;
  const ok = isInt(value.createdAt) && isOptional(value.email, isString) && isOptional(value.name, isString)
    && isOptional(value.phone, isString) && isOptional(value.conversationId, isId) && isOptional(value.pageUrl, isString);
  return ok ? (value as Lead) : undefined;
}

const isSource = (value: unknown): value is ChatSource => isObject(value) && isId(value.resourceId) && isString(value.title)
  && isString(value.snippet) && isOptional(value.section, isString) && isOptional(value.page, isInt)
  && isOptional(value.url, isString) && isOptional(value.timestampSec, (t) => isNumber(t) && t >= 0);

/** What an answer carries beside its text (`streamEnd.data`, an extension); every part optional. */
export function parseAnswerMeta(value: unknown): Partial<AnswerMeta> | undefined {
  if (!isObject(value)) return undefined;
  const ok = isOptional(value.sources, (s) => isArrayOf(s, isSource))
    && isOptional(value.refused, isBool) && isOptional(value.handoff, isBool);
  return ok ? (value as Partial<AnswerMeta>) : undefined;
}

/** A stored 👍/👎 (extension). */
export function parseFeedback(value: unknown): Feedback | undefined {
  if (!isObject(value)) return undefined;
  const ok = isId(value.conversationId) && isInt(value.messageIndex) && (value.rating === 'up' || value.rating === 'down')
    && isOptional(value.comment, isString) && isInt(value.createdAt);
  return ok ? (value as Feedback) : undefined;
}

/** One SSE `data:` payload of a chat stream. */
export function parseStreamingEvent(value: unknown): StreamingEvent | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'partialResponse') return isObject(value.data) && isString(value.data.text) ? (value as StreamingEvent) : undefined;
  if (value.type === 'streamEnd') return value.data === undefined || parseAnswerMeta(value.data) ? (value as StreamingEvent) : undefined;
  if (value.type === 'error') {
    return isInt(value.statusCode) && isString(value.message) && isString(value.error) ? (value as StreamingEvent) : undefined;
  }
  return undefined;
}

/** The API's error body, when an error answer has one. */
export function parseErrorBody(value: unknown): ErrorBody | undefined {
  return isObject(value) && isInt(value.statusCode) && isArrayOf(value.message, isString) && isString(value.error)
    ? (value as ErrorBody) : undefined;
}
