import { ChatbotIdParamsSchema, IdParamsSchema } from '../common/id.schema.js';
import { EmbedFeedbackBodySchema, FeedbackListingQuerySchema, FeedbackListingSchema, FeedbackSchema } from '../feedback/feedback.schema.js';
import { ANY_ROLE, defineRoute, errorResponses } from './route-contract.js';

export const feedbackContract = {
  give: defineRoute({
    operationId: 'giveEmbedFeedback', method: 'post', path: '/v1/embed/{chatbotId}/feedback', tag: 'Embed (public)', security: 'embed',
    summary: 'Rate an answer 👍 or 👎, with an optional comment (extension)',
    description: '`messageIndex` is the answer\'s 0-based position in the saved conversation; `visitorToken` is the one the conversation '
      + 'save returned. A conversation that is not this visitor\'s is a 404; a second verdict on the same answer replaces the first.',
    params: ChatbotIdParamsSchema, body: EmbedFeedbackBodySchema,
    responses: { 201: { description: 'The stored verdict.', schema: FeedbackSchema }, ...errorResponses(400, 401, 403, 404, 429, 500) },
  }),
  list: defineRoute({
    operationId: 'listFeedback', method: 'get', path: '/v1/feedback/{id}', tag: 'Feedback', security: 'apiKey', roles: ANY_ROLE,
    summary: 'List the visitors\' 👍/👎 on a chatbot\'s answers in a time range, newest first, with their counts (extension)',
    description: '`start` and `end` are inclusive Unix ms, as in the lead listing.',
    params: IdParamsSchema, query: FeedbackListingQuerySchema,
    responses: { 200: { description: 'The listing.', schema: FeedbackListingSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};
