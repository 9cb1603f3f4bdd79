import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';
import { ConversationListingQuerySchema, ConversationListingSchema } from '../conversations/conversation-listing.schema.js';
import { ConversationSaveSchema, ConversationSchema } from '../conversations/conversation.schema.js';
import { LeadListingSchema } from '../leads/lead.schema.js';
import { defineRoute, errorResponses } from './route-contract.js';

const ChatbotPathSchema = z.strictObject({ id: IdSchema.meta({ description: 'The chatbot id.' }) });

export const conversationContract = {
  save: defineRoute({
    operationId: 'saveConversation', method: 'post', path: '/v1/conversation', tag: 'Conversations', security: 'apiKey',
    summary: 'Create, replace (`override: true`, the default) or append to a conversation', body: ConversationSaveSchema,
    responses: { 201: { description: 'The saved conversation.', schema: ConversationSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  list: defineRoute({
    operationId: 'listConversations', method: 'get', path: '/v1/conversation/{id}', tag: 'Conversations', security: 'apiKey',
    summary: 'List a chatbot\'s conversations in a time range, newest first, with their analysis',
    description: '`start` and `end` are inclusive Unix ms (defaults 0 and now). `sources` may repeat or be comma-separated.',
    params: ChatbotPathSchema, query: ConversationListingQuerySchema,
    responses: { 200: { description: 'The listing.', schema: ConversationListingSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};

export const leadContract = {
  list: defineRoute({
    operationId: 'listLeads', method: 'get', path: '/v1/lead/{id}', tag: 'Leads', security: 'apiKey',
    summary: 'List a chatbot\'s leads in a time range, newest first',
    params: ChatbotPathSchema, query: TimeRangeQuerySchema,
    responses: { 200: { description: 'The listing.', schema: LeadListingSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};
