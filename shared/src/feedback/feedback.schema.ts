import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';

/** A visitor's verdict on one answer (extension). */
export const FeedbackRatingSchema = z.enum(['up', 'down']);
export type FeedbackRating = z.infer<typeof FeedbackRatingSchema>;

/**
 * Body of `POST /v1/embed/{chatbotId}/feedback` (extension): 👍 or 👎 on the answer at
 * `messageIndex` (0-based, in the saved conversation's messages) of the visitor's own conversation,
 * proven by its `visitorToken`. A second verdict on the same answer replaces the first.
 */
export const EmbedFeedbackBodySchema = z.strictObject({
  conversationId: IdSchema,
  visitorToken: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  messageIndex: z.int().min(0, 'must be at least 0').max(999, 'must be at most 999'),
  rating: FeedbackRatingSchema,
  comment: z.string().trim().max(2000, 'must be at most 2000 characters').optional(),
});
export type EmbedFeedbackBody = z.infer<typeof EmbedFeedbackBodySchema>;

/** One stored verdict, with the answer it is about. */
export const FeedbackSchema = z.object({
  conversationId: IdSchema,
  messageIndex: z.int(),
  rating: FeedbackRatingSchema,
  comment: z.string().optional(),
  /** The answer's text as saved in the conversation (absent when the conversation no longer has it). */
  answer: z.string().optional(),
  createdAt: z.int(),
});
export type Feedback = z.infer<typeof FeedbackSchema>;

/** Query of `GET /v1/feedback/{id}`: the time range, as in the lead listing. */
export const FeedbackListingQuerySchema = TimeRangeQuerySchema;

/** `GET /v1/feedback/{id}` (extension): a chatbot's verdicts in a range, newest first, and their counts. */
export const FeedbackListingSchema = z.object({
  chatbotName: z.string(),
  startInterval: z.iso.datetime(),
  endInterval: z.iso.datetime(),
  totals: z.object({ up: z.int(), down: z.int() }),
  feedback: z.array(FeedbackSchema),
});
export type FeedbackListing = z.infer<typeof FeedbackListingSchema>;
