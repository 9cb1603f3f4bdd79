import { IdParamsSchema } from '../common/id.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';
import { ChatbotStatsSchema } from '../insights/chatbot-stats.schema.js';
import { ANY_ROLE, defineRoute, errorResponses } from './route-contract.js';

export const insightsContract = {
  chatbotStats: defineRoute({
    operationId: 'getChatbotStats', method: 'get', path: '/v1/chatbot/{id}/stats', tag: 'Insights', security: 'apiKey', roles: ANY_ROLE,
    summary: 'A chatbot\'s conversations in a time range, summed up (extension)',
    description: 'Conversations and messages per UTC day, the sentiment mix and top intents of the analysed conversations, the share '
      + 'of visitor messages the analysis found unanswered, conversations per UTC hour, and the latest unanswered questions. '
      + 'Visitors\' 👍/👎 given in the range: `feedback` in all and `feedbackDays` per UTC day (extension), each with `upShare`, the '
      + '👍 share of the rated answers (0..1, omitted when none was rated). '
      + '`start` and `end` as in the conversation listing.',
    params: IdParamsSchema, query: TimeRangeQuerySchema,
    responses: { 200: { description: 'The statistics.', schema: ChatbotStatsSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};
