import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { QaPairInputSchema, QaPairSchema } from '../resources/qa-resource.schema.js';
import { TextResourceCreateSchema } from '../resources/resource-create.schema.js';
import { ResourceSchema } from '../resources/resource.schema.js';

/** Example conversations named per knowledge gap, at most. */
export const MAX_GAP_EXAMPLES = 5;
/** Phrasings listed per knowledge gap, at most. */
export const MAX_GAP_PHRASINGS = 10;

/** Path parameters of one knowledge gap of a chatbot. */
export const GapParamsSchema = z.strictObject({ id: IdSchema, gapId: IdSchema });
export type GapParams = z.infer<typeof GapParamsSchema>;

/**
 * One open knowledge gap (extension): the questions of one meaning that the chatbot could not
 * answer, across its conversations.
 */
export const KnowledgeGapGroupSchema = z.object({
  id: IdSchema.meta({ description: 'Stable while the gap is asked: derived from the chatbot and the normalised text of its first question.' }),
  question: z.string().meta({ description: 'The phrasing visitors used most (the latest of equals).' }),
  questions: z.array(z.string()).meta({ description: `The distinct phrasings, most asked first (at most ${MAX_GAP_PHRASINGS}).` }),
  count: z.int().meta({ description: 'How many times it was asked (once per conversation and phrasing).' }),
  lastAskedAt: z.int().meta({ description: 'Unix ms: the last change of the latest conversation that asked it.' }),
  conversationIds: z.array(IdSchema).meta({ description: `Conversations that asked it, newest first (at most ${MAX_GAP_EXAMPLES}).` }),
  offTopic: z.boolean().meta({ description: 'True when the chatbot\'s resources hold no passage related to it at all (likely outside the chatbot\'s subject); false when they hold related passages but no answer.' }),
});
export type KnowledgeGapGroup = z.infer<typeof KnowledgeGapGroupSchema>;

/** `GET /v1/chatbot/{id}/gaps` (extension): the open knowledge gaps, on-topic first, then most asked. */
export const KnowledgeGapListSchema = z.object({
  grouping: z.enum(['meaning', 'words']).meta({ description: '`meaning` when the built-in sentence encoder grouped the questions, `words` when only their normalised words did.' }),
  gaps: z.array(KnowledgeGapGroupSchema),
});
export type KnowledgeGapList = z.infer<typeof KnowledgeGapListSchema>;

/** `POST /v1/chatbot/{id}/gaps/{gapId}/dismiss` (extension): what was hidden. */
export const GapDismissalSchema = z.object({
  id: IdSchema,
  dismissedAt: z.int(),
});
export type GapDismissal = z.infer<typeof GapDismissalSchema>;

/**
 * Body of `POST /v1/chatbot/{id}/saved-answers` (extension): a saved answer for this chatbot, and
 * optionally the knowledge gap it answers (which it closes).
 */
export const SavedAnswerCreateSchema = QaPairInputSchema.extend({
  gapId: IdSchema.optional(),
});
export type SavedAnswerCreate = z.infer<typeof SavedAnswerCreateSchema>;

/** `POST /v1/chatbot/{id}/saved-answers` (extension): the new pair and the chatbot's saved-answers resource. */
export const SavedAnswerSchema = z.object({
  pair: QaPairSchema,
  resource: ResourceSchema.meta({ description: 'The chatbot\'s saved-answers resource: it answers once `aiProcessingStatus` is `DONE`.' }),
  resourceCreated: z.boolean().meta({ description: 'True when this call created the resource and attached it to the chatbot.' }),
});
export type SavedAnswer = z.infer<typeof SavedAnswerSchema>;

/**
 * Body of `POST /v1/chatbot/{id}/texts` (extension): a text resource written for this chatbot (a
 * text that answers a knowledge gap), and optionally the knowledge gap it answers (which it closes).
 */
export const ChatbotTextCreateSchema = TextResourceCreateSchema.extend({
  gapId: IdSchema.optional().meta({ description: 'The knowledge gap the text answers: it is closed, as by a dismissal.' }),
});
export type ChatbotTextCreate = z.infer<typeof ChatbotTextCreateSchema>;
