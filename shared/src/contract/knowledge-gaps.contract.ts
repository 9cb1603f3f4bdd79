import { IdParamsSchema } from '../common/id.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';
import {
  ChatbotTextCreateSchema, GapDismissalSchema, GapParamsSchema, KnowledgeGapListSchema, SavedAnswerCreateSchema, SavedAnswerSchema,
} from '../knowledge-gaps/knowledge-gaps.schema.js';
import { ResourceSchema } from '../resources/resource.schema.js';
import { ANY_ROLE, MANAGERS, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Knowledge gaps';

export const knowledgeGapsContract = {
  listGaps: defineRoute({
    operationId: 'listKnowledgeGaps', method: 'get', path: '/v1/chatbot/{id}/gaps', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The questions a chatbot could not answer, grouped (extension)',
    description: 'Built from the `unansweredQuestions` of the analyses of the chatbot\'s conversations created in the range '
      + '(`start` and `end` as in the conversation listing; the latest 2,000 such conversations). Questions are grouped when their '
      + 'normalised words match (case, punctuation, word endings and filler words ignored) and, with the built-in sentence encoder, '
      + 'when their meanings are close and one\'s words hold all of the other\'s (a replaced word, "Sundays" for "Saturdays", keeps '
      + 'them apart); `grouping` says which applied. Each gap has a stable `id`. A gap that was dismissed or answered '
      + '(`POST /v1/chatbot/{id}/saved-answers` or `POST /v1/chatbot/{id}/texts` with its `gapId`) is left out until a conversation started after that asks it again. '
      + 'At most 100 gaps: on-topic ones (the resources hold related passages) first, then by how often they were asked.',
    params: IdParamsSchema, query: TimeRangeQuerySchema,
    responses: { 200: { description: 'The open gaps.', schema: KnowledgeGapListSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  dismissGap: defineRoute({
    operationId: 'dismissKnowledgeGap', method: 'post', path: '/v1/chatbot/{id}/gaps/{gapId}/dismiss', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Hide a knowledge gap (extension)',
    description: 'Stored: the gap stays hidden until a conversation started after the dismissal asks a question of the same group. '
      + 'Dismissing again moves the time forward. Any well-formed `gapId` is accepted (a gap id of this chatbot\'s listing is meant).',
    params: GapParamsSchema,
    responses: { 200: { description: 'The dismissal.', schema: GapDismissalSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  saveAnswer: defineRoute({
    operationId: 'createSavedAnswer', method: 'post', path: '/v1/chatbot/{id}/saved-answers', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Save the right answer for a chatbot (extension)',
    description: 'Adds the pair to the chatbot\'s own saved-answers resource (a `QA` resource named "<chatbot name> — saved answers"), '
      + 'creating it and adding it to the chatbot\'s `resourceIds` on first use, and attaching it again if it was removed. The resource '
      + 'is re-indexed: the chatbot answers with the pair once the resource is `DONE` (`GET /v1/resource/{id}`). The knowledge gaps '
      + 'that ask one of the `questions` in the same words are closed, as by a dismissal, and with `gapId` that gap too. Counts against the plan like any saved answer (402).',
    params: IdParamsSchema, body: SavedAnswerCreateSchema,
    responses: { 201: { description: 'The pair and the resource.', schema: SavedAnswerSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  addText: defineRoute({
    operationId: 'createChatbotText', method: 'post', path: '/v1/chatbot/{id}/texts', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Add a text that the chatbot answers from (extension)',
    description: 'Creates a `TEXT` resource as `POST /v1/resource/text` does and adds it to the chatbot\'s `resourceIds`, so the text '
      + 'written to answer a knowledge gap is the chatbot\'s knowledge. It is indexed like any text: the chatbot answers from it once '
      + 'the resource is `DONE` (`GET /v1/resource/{id}`). With `gapId` that knowledge gap is closed, as by a dismissal, and so is the '
      + 'gap asking `name` in the same words. Counts against the plan (402) and the resource creation rate limit (429) like any '
      + 'resource; a body over 1 MB is refused (413): larger texts go through `POST /v1/resource/text`.',
    params: IdParamsSchema, body: ChatbotTextCreateSchema,
    responses: { 201: { description: 'The text resource, attached to the chatbot.', schema: ResourceSchema }, ...errorResponses(400, 401, 402, 404, 413, 429, 500) },
  }),
};
