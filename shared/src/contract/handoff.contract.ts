import { ChatbotIdParamsSchema } from '../common/id.schema.js';
import { StoredMessageSchema } from '../chat/stored-message.schema.js';
import {
  ConversationPathSchema, ConversationStatusSchema, HandoffOutcomeSchema, HandoffRequestSchema, InboxPageSchema, InboxQuerySchema,
  MAX_REPLY_CHARS, TeamReplyBodySchema, VisitorStreamParamsSchema,
} from '../handoff/handoff.schema.js';
import { z } from 'zod';
import { ANY_ROLE, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Live handoff';

/** How the live event streams frame their events (both the inbox's and the visitor's). */
export const LIVE_STREAM_DESCRIPTION = 'Server-sent events (status 200). Each event has an `id:` (a growing number) and one `data:` line: '
  + '`{type: "message", conversationId, chatbotId, index, message: {text, fromUser, sender, createdAt}}` or '
  + '`{type: "state", conversationId, chatbotId, state, heldBy}`. A comment line every `SSE_HEARTBEAT_MS` keeps it open. '
  + 'Reconnect with `Last-Event-ID` (header, or `lastEventId` in the query): the stream first replays every stored event after it, '
  + 'exactly once, then goes on live. Without it, the stream starts with what happens next.';

const HOLDER = 'A conversation another team member has (`HUMAN`) is a 409 whose message names them.';

export const handoffContract = {
  takeover: defineRoute({
    operationId: 'takeOverConversation', method: 'post', path: '/v1/conversation/{id}/takeover', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Take a conversation over from the bot: it becomes HUMAN and the bot stops answering', params: ConversationPathSchema,
    description: `Idempotent for the member who already has it. A CLOSED conversation is a 409. ${HOLDER}`,
    responses: { 200: { description: 'The conversation\'s new state.', schema: ConversationStatusSchema }, ...errorResponses(400, 401, 404, 409, 500) },
  }),
  reply: defineRoute({
    operationId: 'replyToConversation', method: 'post', path: '/v1/conversation/{id}/messages', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Reply to the visitor as a team member', params: ConversationPathSchema, body: TeamReplyBodySchema,
    description: `\`text\`: 1–${MAX_REPLY_CHARS} characters. Replying takes the conversation over when nobody has it. `
      + `The visitor's widget shows it at once. A CLOSED conversation is a 409. ${HOLDER}`,
    responses: {
      201: { description: 'The stored message and its index in `messages`.', schema: z.object({ index: z.int(), message: StoredMessageSchema }) },
      ...errorResponses(400, 401, 404, 409, 500),
    },
  }),
  release: defineRoute({
    operationId: 'releaseConversation', method: 'post', path: '/v1/conversation/{id}/release', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Hand the conversation back to the bot (BOT)', params: ConversationPathSchema,
    description: `From WAITING or HUMAN; the bot answers the visitor's next message. A CLOSED conversation is a 409. ${HOLDER}`,
    responses: { 200: { description: 'The conversation\'s new state.', schema: ConversationStatusSchema }, ...errorResponses(400, 401, 404, 409, 500) },
  }),
  close: defineRoute({
    operationId: 'closeConversation', method: 'post', path: '/v1/conversation/{id}/close', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Close the conversation: no more replies (409)', params: ConversationPathSchema,
    description: `Idempotent. The visitor's widget says the conversation was closed; their next message starts a new one. ${HOLDER}`,
    responses: { 200: { description: 'The conversation\'s new state.', schema: ConversationStatusSchema }, ...errorResponses(400, 401, 404, 409, 500) },
  }),
  inbox: defineRoute({
    operationId: 'listInbox', method: 'get', path: '/v1/inbox', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The organisation\'s conversations across its chatbots, newest activity first, paged',
    description: '`state` keeps conversations in these states. `limit` (default 50) and `cursor` page through.',
    query: InboxQuerySchema,
    responses: { 200: { description: 'A page of the inbox.', schema: InboxPageSchema }, ...errorResponses(400, 401, 500) },
  }),
  inboxEvents: defineRoute({
    operationId: 'inboxEvents', method: 'get', path: '/v1/inbox/events', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The organisation\'s live events: every message and state change of its conversations (SSE)',
    description: `${LIVE_STREAM_DESCRIPTION} While it is open the team counts as available: a visitor who asks for a person waits for one.`,
    responses: { 200: { description: 'The event stream.', contentType: 'text/event-stream' }, ...errorResponses(400, 401, 500) },
  }),
  visitorHandoff: defineRoute({
    operationId: 'requestEmbedHandoff', method: 'post', path: '/v1/embed/{chatbotId}/handoff', tag: 'Embed (public)', security: 'embed',
    summary: 'The visitor asks for a person ("Talk to a person")', params: ChatbotIdParamsSchema, body: HandoffRequestSchema,
    description: 'When someone of the team is available (active in the console in the last few minutes, or within the chatbot\'s '
      + '`websiteIntegration.officeHours`) the conversation becomes `WAITING` and the bot stops answering; otherwise it stays as it '
      + 'was (`available: false`) and the widget offers the lead form. A wrong `visitorToken` is a 404, like an absent conversation. '
      + 'Counts toward `EMBED_VISITOR_RATE_LIMIT`.',
    responses: { 200: { description: 'The outcome.', schema: HandoffOutcomeSchema }, ...errorResponses(400, 401, 403, 404, 429, 500) },
  }),
  visitorEvents: defineRoute({
    operationId: 'embedConversationEvents', method: 'get', path: '/v1/embed/{chatbotId}/conversation/{conversationId}/events', tag: 'Embed (public)',
    security: 'embed', summary: 'The visitor\'s live events: the team\'s replies and state changes of its own conversation (SSE)',
    params: VisitorStreamParamsSchema,
    description: `${LIVE_STREAM_DESCRIPTION} Only the team's messages and state changes are sent (the visitor has its own and the bot's). `
      + 'Authorised by the conversation\'s `visitorToken` in `X-Visitor-Token` (a wrong one is a 404). Limits: opening counts toward '
      + '`EMBED_VISITOR_RATE_LIMIT`; at most 4 open streams per visitor address and chatbot, and 50 per address in all, on an instance (429 beyond); a stream '
      + 'ends after 30 minutes and the widget reconnects with `Last-Event-ID`.',
    responses: { 200: { description: 'The event stream.', contentType: 'text/event-stream' }, ...errorResponses(400, 401, 403, 404, 429, 500) },
  }),
};
