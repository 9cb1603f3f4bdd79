import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { TagsSchema } from '../common/tags.schema.js';
import { TextResourceCreateSchema } from './resource-create.schema.js';

/** Questions one saved answer answers, at most. */
export const MAX_QA_QUESTIONS = 20;
/** Pairs of one QA resource, at most. */
export const MAX_QA_PAIRS = 1000;
/** Characters of one question, at most. */
export const MAX_QA_QUESTION_CHARS = 500;
/** Characters of one answer, at most. */
export const MAX_QA_ANSWER_CHARS = 5000;

const QuestionSchema = z.string().trim().min(1, 'must not be empty').max(MAX_QA_QUESTION_CHARS, `must be at most ${MAX_QA_QUESTION_CHARS} characters`);

/** A saved answer as given: the visitor questions it answers (1 to 20) and the owner's answer. */
export const QaPairInputSchema = z.strictObject({
  questions: z.array(QuestionSchema).min(1, 'must contain at least 1 question').max(MAX_QA_QUESTIONS, `must contain at most ${MAX_QA_QUESTIONS} questions`),
  answer: z.string().trim().min(1, 'must not be empty').max(MAX_QA_ANSWER_CHARS, `must be at most ${MAX_QA_ANSWER_CHARS} characters`),
});
export type QaPairInput = z.infer<typeof QaPairInputSchema>;

const PairsSchema = <T extends z.ZodType>(pair: T) => z.array(pair)
  .min(1, 'must contain at least 1 pair').max(MAX_QA_PAIRS, `must contain at most ${MAX_QA_PAIRS} pairs`);

/** Body of `POST /v1/resource/qa` (extension): a named set of saved answers. */
export const QaResourceCreateSchema = z.strictObject({
  name: TextResourceCreateSchema.shape.name,
  tags: TagsSchema.default([]),
  pairs: PairsSchema(QaPairInputSchema),
});
export type QaResourceCreate = z.infer<typeof QaResourceCreateSchema>;

/** A pair of a `PUT` body: an `id` of the resource's pairs keeps that pair's id; without one the pair is new. */
export const QaPairReplaceSchema = QaPairInputSchema.extend({ id: IdSchema.optional() });

/**
 * Body of `PUT /v1/resource/qa/{id}` (extension): any of `name`, `tags`, `pairs`. `pairs` replaces
 * every pair; a pair sent back with its `id` keeps it.
 */
export const QaResourceUpdateSchema = z.strictObject({
  name: TextResourceCreateSchema.shape.name.optional(),
  tags: TagsSchema.optional(),
  pairs: PairsSchema(QaPairReplaceSchema).optional(),
}).refine((body) => Object.keys(body).length > 0, { message: 'must contain name, tags or pairs', path: [] });
export type QaResourceUpdate = z.infer<typeof QaResourceUpdateSchema>;

/** One saved answer with its stable id (what chat sources name as `pairId`). */
export const QaPairSchema = z.object({
  id: IdSchema,
  questions: z.array(z.string()),
  answer: z.string(),
});
export type QaPair = z.infer<typeof QaPairSchema>;

/** `GET /v1/resource/qa/{id}` (extension): a QA resource's pairs, in order, to edit them. */
export const QaResourceContentSchema = z.object({
  id: IdSchema,
  name: z.string(),
  tags: z.array(z.string()),
  pairs: z.array(QaPairSchema),
});
export type QaResourceContent = z.infer<typeof QaResourceContentSchema>;

/** Path parameters of one pair of a QA resource. */
export const QaPairParamsSchema = z.strictObject({ id: IdSchema, pairId: IdSchema });
export type QaPairParams = z.infer<typeof QaPairParamsSchema>;
