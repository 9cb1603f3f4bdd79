import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';
import { ConversationListingQuerySchema, ConversationListingSchema } from '../conversations/conversation-listing.schema.js';
import { ConversationSaveSchema, ConversationSchema, MAX_CONVERSATION_CHARS } from '../conversations/conversation.schema.js';
import { LeadListingQuerySchema, LeadListingSchema } from '../leads/lead.schema.js';
import { ANY_ROLE, defineRoute, errorResponses } from './route-contract.js';

const ChatbotPathSchema = z.strictObject({ id: IdSchema.meta({ description: 'The chatbot id.' }) });

export const conversationContract = {
  save: defineRoute({
    operationId: 'saveConversation', method: 'post', path: '/v1/conversation', tag: 'Conversations', security: 'apiKey', roles: ANY_ROLE,
    summary: 'Create, replace (`override: true`, the default) or append to a conversation', body: ConversationSaveSchema,
    description: 'Without `conversationId` a conversation of source type `app` is created, with `user` the API key\'s user. '
      + 'With it, the messages replace (`override: true`) or are appended to (`override: false`) those of that conversation, '
      + 'which keeps its source and user; a conversation that is not this chatbot\'s is a 404, and an append beyond 1000 messages '
      + `or ${MAX_CONVERSATION_CHARS} characters of message text in all (extension) a 400. `
      + 'Every save sets the analysis back to `PENDING` and queues a new one, run a few seconds later (`ANALYSIS_DELAY_MS`) on the '
      + 'latest messages of the conversation.',
    responses: { 201: { description: 'The saved conversation.', schema: ConversationSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  list: defineRoute({
    operationId: 'listConversations', method: 'get', path: '/v1/conversation/{id}', tag: 'Conversations', security: 'apiKey', roles: ANY_ROLE,
    summary: 'List a chatbot\'s conversations in a time range, newest first, with their analysis',
    description: '`start` and `end` are inclusive Unix ms (defaults 0 and now); `start > end`, or a future `start` without `end`, is a 400. '
      + '`sources` may repeat or be comma-separated; absent or empty means every source. Without `limit` and `cursor` the whole range '
      + 'is returned; with either (extension) a page of `limit` conversations (default 50) and `nextCursor` while more follow. '
      + '`search` (extension) keeps conversations with a message containing the text; `rating=up` or `rating=down` (extension) keeps '
      + 'those where the visitor rated at least one answer 👍 or 👎, and any other value is a 400. Each item\'s `feedback` (extension, '
      + 'omitted when none) lists the visitor\'s verdicts on its answers: `messageIndex` (0-based in `messages`), `rating`, `comment`. '
      + '`analysis.status` goes `PENDING` → `IN_PROGRESS` → `DONE` | `FAILED` after every save; `analysis.result` is the latest finished '
      + 'analysis (while a changed conversation is re-analysed it still shows the previous one). `customExtractedData` holds the fields '
      + 'the operator configured (`ANALYSIS_CUSTOM_FIELDS`), each omitted when the conversation does not say; `unansweredQuestions` '
      + '(extension) lists visitor questions the chatbot could not answer from its resources.',
    params: ChatbotPathSchema, query: ConversationListingQuerySchema,
    responses: { 200: { description: 'The listing.', schema: ConversationListingSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};

export const leadContract = {
  list: defineRoute({
    operationId: 'listLeads', method: 'get', path: '/v1/lead/{id}', tag: 'Leads', security: 'apiKey', roles: ANY_ROLE,
    summary: 'List a chatbot\'s leads in a time range, newest first',
    description: 'Without `limit` and `cursor` the whole range is returned; with either (extension) a page of `limit` leads '
      + '(default 50) and `nextCursor` while more follow. `conversationId` (extension) names the conversation the lead was left in.',
    params: ChatbotPathSchema, query: LeadListingQuerySchema,
    responses: { 200: { description: 'The listing.', schema: LeadListingSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  csv: defineRoute({
    operationId: 'exportLeadsCsv', method: 'get', path: '/v1/lead/{id}/csv', tag: 'Leads', security: 'apiKey', roles: ANY_ROLE,
    summary: 'Export a chatbot\'s leads in a time range as CSV (extension)',
    description: 'RFC 4180 CSV with a header row `createdAt,name,email,phone,conversationId,pageUrl`, newest first; `createdAt` is ISO-8601 UTC. '
      + 'Cells that a spreadsheet would run as a formula are prefixed with `\'`, and so is a formula start right after a `;`; '
      + 'cells holding `,` or `;` are quoted, so the file is safe where spreadsheets split on `;`.',
    params: ChatbotPathSchema, query: TimeRangeQuerySchema,
    responses: { 200: { description: 'The leads as CSV.', contentType: 'text/csv' }, ...errorResponses(400, 401, 404, 500) },
  }),
};
