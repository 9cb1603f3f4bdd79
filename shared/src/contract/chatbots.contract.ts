import { z } from 'zod';
import { IdParamsSchema } from '../common/id.schema.js';
import { ChatbotChatBodySchema, ChatResponseSchema } from '../chat/chat-body.schema.js';
import { ChatbotCreateSchema } from '../chatbots/chatbot-create.schema.js';
import { ChatbotUpdateSchema } from '../chatbots/chatbot-update.schema.js';
import { ChatbotListSchema, ChatbotSchema } from '../chatbots/chatbot.schema.js';
import { EmbedCheckSchema } from '../embed/embed-check.schema.js';
import { ANY_ROLE, MANAGERS, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Chatbots';
const STREAM_DESCRIPTION = 'Server-Sent Events: each event is one `data:` line with a streaming event JSON ' +
  '(`partialResponse` deltas, then `streamEnd`, or `error` if it failed after streaming began). ' +
  'The joined deltas are the answer\'s text, without a trailing "Source: …" line; `streamEnd` carries ' +
  '`data: {sources, refused?, handoff?}` (extension), the same fields a plain answer has beside `text`. ' +
  'Errors found before streaming are ordinary JSON error responses. An idle stream carries SSE comment ' +
  'lines (`: heartbeat`) that clients ignore; a model provider failing mid-answer ends the stream with an ' +
  '`error` event of statusCode 502. Closing the connection cancels the model call. Every chat request, plain ' +
  'or streamed, counts as one message of the plan\'s monthly quota (402 once it is spent).';

/** The 201 of the plain chat endpoints. */
const CHAT_RESPONSE_DESCRIPTION = 'The answer: `text`, and beside it (extensions) `sources`, the passages it was drawn from, '
  + '`refused` and `handoff`. `text` no longer ends with a "Source: …" line.';

export const chatbotContract = {
  list: defineRoute({
    operationId: 'listChatbots', method: 'get', path: '/v1/chatbot/all', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'List the organisation\'s chatbots, newest first',
    responses: { 200: { description: 'The chatbots.', schema: ChatbotListSchema }, ...errorResponses(401, 500) },
  }),
  get: defineRoute({
    operationId: 'getChatbot', method: 'get', path: '/v1/chatbot/{id}', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Get a chatbot', params: IdParamsSchema,
    responses: { 200: { description: 'The chatbot.', schema: ChatbotSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  embedCheck: defineRoute({
    operationId: 'getChatbotEmbedCheck', method: 'get', path: '/v1/chatbot/{id}/embed-check', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Where the widget was loaded, and which origins its allowed domains refused (extension)',
    description: 'Recorded from the public embed API: a page of another origin that loads the widget\'s settings is `loaded`; '
      + 'a request whose `Origin` the chatbot\'s `allowedDomains` refuse is `refused`. Each origin is refreshed at most once a '
      + 'minute; the newest 20 of each are kept. The service\'s own chat link and console preview are not listed.',
    params: IdParamsSchema,
    responses: { 200: { description: 'The origins seen.', schema: EmbedCheckSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  remove: defineRoute({
    operationId: 'deleteChatbot', method: 'delete', path: '/v1/chatbot/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Delete a chatbot with its conversations, leads and avatar', params: IdParamsSchema,
    responses: { 200: { description: 'The deleted chatbot.', schema: ChatbotSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  create: defineRoute({
    operationId: 'createChatbot', method: 'post', path: '/v1/chatbot', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Create a chatbot', body: ChatbotCreateSchema,
    description: 'Only `name` is required. 403 when the plan does not include `model`; 404 when a `resourceIds` entry is not one of the organisation\'s resources.',
    responses: { 201: { description: 'The new chatbot.', schema: ChatbotSchema }, ...errorResponses(400, 401, 403, 404, 500) },
  }),
  update: defineRoute({
    operationId: 'updateChatbot', method: 'put', path: '/v1/chatbot/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Update a chatbot', params: IdParamsSchema, body: ChatbotUpdateSchema,
    description: 'Absent fields stay unchanged. `gradientColors` is "c1,c2,c3,c4", an array of 4, or "" to remove it. `websiteIntegration` sub-fields given replace the stored ones.',
    responses: { 200: { description: 'The updated chatbot.', schema: ChatbotSchema }, ...errorResponses(400, 401, 403, 404, 500) },
  }),
  avatar: defineRoute({
    operationId: 'uploadChatbotAvatar', method: 'put', path: '/v1/chatbot/avatar/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Upload the chatbot avatar (PNG, JPEG, WebP or GIF, under 5 MB)', params: IdParamsSchema,
    bodyType: 'multipart', body: z.object({ file: z.string().meta({ format: 'binary' }) }),
    responses: { 200: { description: 'Stored; no body.' }, ...errorResponses(400, 401, 404, 500) },
  }),
  chat: defineRoute({
    operationId: 'chatWithChatbot', method: 'post', path: '/v1/chatbot/chat', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Ask a chatbot; answers from its resources', body: ChatbotChatBodySchema,
    responses: { 201: { description: CHAT_RESPONSE_DESCRIPTION, schema: ChatResponseSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  chatStream: defineRoute({
    operationId: 'chatWithChatbotStream', method: 'post', path: '/v1/chatbot/chat-stream', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Ask a chatbot; the answer streams as Server-Sent Events', body: ChatbotChatBodySchema,
    responses: { 201: { description: STREAM_DESCRIPTION, contentType: 'text/event-stream' }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
};

export { CHAT_RESPONSE_DESCRIPTION, STREAM_DESCRIPTION };
