import { z } from 'zod';
import { ChatbotIdParamsSchema } from '../common/id.schema.js';
import {
  EmbedChatBodySchema, EmbedConfigSchema, EmbedConversationSaveSchema, EmbedConversationSchema,
  EmbedSessionBodySchema, EmbedSessionSchema, MAX_VISITOR_SAVE_CHARS,
} from '../embed/embed.schema.js';
import { LeadCaptureSchema, LeadSchema } from '../leads/lead.schema.js';
import { STREAM_DESCRIPTION } from './chatbots.contract.js';
import { defineRoute, errorResponses } from './route-contract.js';

const tag = 'Embed (public)';

/** The limits that protect an owner from anonymous traffic (issue 14), as operators configure them. */
const VISITOR_LIMITS = 'Limits (429 with `Retry-After`, no body): per visitor address and chatbot, `EMBED_VISITOR_RATE_LIMIT` requests '
  + 'a minute (default 60, shared by chat, saves and leads) and `EMBED_VISITOR_DAILY_MESSAGES` chat messages a day (default 200); '
  + 'per chatbot, `EMBED_CHATBOT_RATE_LIMIT` chats a minute (default 600) and a daily budget for all visitors together '
  + '(`websiteIntegration.dailyVisitorMessages`, else `EMBED_CHATBOT_DAILY_MESSAGES`, default 5000). The per-chatbot limits refuse '
  + 'only new visitors: a chat that names a saved conversation (`conversationId` with its `visitorToken`) is counted but served, '
  + 'within its visitor\'s own limits. A visitor is its address: '
  + 'a new conversation or token does not reset a limit, and `X-Forwarded-For` counts only as far as `TRUST_PROXY` trusts it. '
  + 'Visitors may spend `EMBED_PLAN_SHARE_PERCENT` (default 80) of the organisation\'s monthly messages (402 beyond), so the rest '
  + 'stays for the owner\'s own API chats.';
const visitorErrors = errorResponses(400, 401, 403, 404, 500);

export const embedContract = {
  config: defineRoute({
    operationId: 'getEmbedConfig', method: 'get', path: '/v1/embed/{chatbotId}/config', tag, security: 'public',
    summary: 'The chatbot\'s public appearance, for the widget', params: ChatbotIdParamsSchema,
    responses: { 200: { description: 'Appearance only.', schema: EmbedConfigSchema }, ...errorResponses(400, 403, 404, 500) },
  }),
  session: defineRoute({
    operationId: 'createEmbedSession', method: 'post', path: '/v1/embed/{chatbotId}/session', tag, security: 'public',
    summary: 'Exchange a PRIVATE chatbot\'s password for a visitor token', params: ChatbotIdParamsSchema, body: EmbedSessionBodySchema,
    description: 'Password attempts are limited per visitor address and chatbot: `EMBED_SESSION_RATE_LIMIT` per 15 minutes (default 10), '
      + 'then 429 with `Retry-After`. `X-Forwarded-For` counts only as far as `TRUST_PROXY` trusts it.',
    responses: { 201: { description: 'A signed, expiring token.', schema: EmbedSessionSchema }, ...errorResponses(400, 401, 403, 404, 429, 500) },
  }),
  chatStream: defineRoute({
    operationId: 'embedChatStream', method: 'post', path: '/v1/embed/{chatbotId}/chat-stream', tag, security: 'embed',
    summary: 'Ask the chatbot as a visitor (SSE)', params: ChatbotIdParamsSchema, body: EmbedChatBodySchema, description: VISITOR_LIMITS,
    responses: { 201: { description: STREAM_DESCRIPTION, contentType: 'text/event-stream' }, ...visitorErrors, ...errorResponses(402, 429) },
  }),
  conversation: defineRoute({
    operationId: 'saveEmbedConversation', method: 'post', path: '/v1/embed/{chatbotId}/conversation', tag, security: 'embed',
    summary: 'Save the visitor\'s conversation; extending it needs its visitorToken', params: ChatbotIdParamsSchema, body: EmbedConversationSaveSchema,
    description: `At most ${MAX_VISITOR_SAVE_CHARS} characters of message text per save. ${VISITOR_LIMITS}`,
    responses: { 201: { description: 'The conversation and its visitorToken.', schema: EmbedConversationSchema }, ...visitorErrors, ...errorResponses(429) },
  }),
  leads: defineRoute({
    operationId: 'captureEmbedLead', method: 'post', path: '/v1/embed/{chatbotId}/leads', tag, security: 'embed',
    summary: 'Leave contact details (an email or a phone at least)', params: ChatbotIdParamsSchema, body: LeadCaptureSchema, description: VISITOR_LIMITS,
    responses: { 201: { description: 'The lead.', schema: LeadSchema }, ...visitorErrors, ...errorResponses(429) },
  }),
  avatar: defineRoute({
    operationId: 'getEmbedAvatar', method: 'get', path: '/v1/embed/{chatbotId}/avatar', tag, security: 'public',
    summary: 'The chatbot\'s avatar image', params: ChatbotIdParamsSchema,
    responses: { 200: { description: 'The image.', contentType: 'image/*' }, ...errorResponses(400, 403, 404, 500) },
  }),
};

export const systemContract = {
  health: defineRoute({
    operationId: 'health', method: 'get', path: '/health', tag: 'System', security: 'public',
    summary: 'Liveness and database check',
    responses: { 200: { description: 'Up.', schema: z.object({ status: z.literal('ok') }) }, 503: { description: 'The database is unreachable.' } },
  }),
  ready: defineRoute({
    operationId: 'ready', method: 'get', path: '/health/ready', tag: 'System', security: 'public',
    summary: 'Readiness: up, and warmed up (extension)',
    description: 'For a load balancer\'s readiness probe. 503 with `Retry-After` while the database is unreachable or the instance is still loading, '
      + 'after it starts, what its first visitors would otherwise wait for (the local engine\'s sentence encoder, the term indexes of the knowledge of the chatbots used last). '
      + 'It answers visitors meanwhile, only more slowly. `/health` is liveness: it does not wait for the warm-up.',
    responses: { 200: { description: 'Ready.', schema: z.object({ status: z.literal('ready') }) }, 503: { description: 'The database is unreachable, or the instance is warming up.' } },
  }),
  openapi: defineRoute({
    operationId: 'openapi', method: 'get', path: '/v1/openapi.json', tag: 'System', security: 'public',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'The document.', schema: z.record(z.string(), z.unknown()) } },
  }),
};
