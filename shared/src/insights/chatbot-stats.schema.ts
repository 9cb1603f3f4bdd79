import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/** One UTC day of a chatbot's traffic: conversations started that day and their messages. */
export const DailyTrafficSchema = z.object({
  date: z.string().meta({ description: 'The UTC day, `YYYY-MM-DD`.' }),
  conversations: z.int(),
  messages: z.int(),
});

/**
 * Visitors' 👍 and 👎 (extension). `upShare` is `up / (up + down)`, 0..1; omitted when nothing was
 * rated, so "no ratings" never reads as "all 👎".
 */
export const RatingCountsSchema = z.object({
  up: z.int(),
  down: z.int(),
  upShare: z.number().min(0).max(1).optional(),
});
export type RatingCounts = z.infer<typeof RatingCountsSchema>;

/** One UTC day of visitors' verdicts, counted by when the verdict was given. */
export const DailyRatingsSchema = RatingCountsSchema.extend({
  date: z.string().meta({ description: 'The UTC day, `YYYY-MM-DD`.' }),
});
export type DailyRatings = z.infer<typeof DailyRatingsSchema>;

/** A question the chatbot could not answer from its resources, and where it was asked. */
export const KnowledgeGapSchema = z.object({
  question: z.string(),
  conversationId: IdSchema,
  createdAt: z.int(),
});
export type KnowledgeGap = z.infer<typeof KnowledgeGapSchema>;

/**
 * `GET /v1/chatbot/{id}/stats` (extension): a chatbot's conversations in a range, summed up.
 * Days and hours are UTC and counted by when a conversation started.
 */
export const ChatbotStatsSchema = z.object({
  chatbotName: z.string(),
  startInterval: z.iso.datetime(),
  endInterval: z.iso.datetime(),
  conversations: z.int(),
  messages: z.int(),
  /** Every day of the range that has conversations, oldest first. */
  days: z.array(DailyTrafficSchema),
  /** Analysed conversations per sentiment (`positive`, `neutral`, `negative`, `mixed`, …). */
  sentiment: z.record(z.string(), z.int()),
  /** The most frequent intents, most frequent first (at most 10). */
  topIntents: z.array(z.object({ intent: z.string(), conversations: z.int() })),
  /** Visitor messages, and how many of them the analysis found unanswered; `unansweredShare` is their ratio (0 when none). */
  questions: z.object({ asked: z.int(), unanswered: z.int(), unansweredShare: z.number() }),
  /** Conversations started in each UTC hour, index 0 = 00:00–00:59. */
  busiestHours: z.array(z.int()).length(24),
  /** The latest unanswered questions (at most 50), newest first. */
  knowledgeGaps: z.array(KnowledgeGapSchema),
  /**
   * Visitors' 👍 and 👎 on the chatbot's answers given in the range (POST /v1/embed/{chatbotId}/feedback);
   * `upShare` (extension) is the 👍 share, omitted when nothing was rated.
   */
  feedback: RatingCountsSchema.meta({ description: 'Visitors\' 👍 (`up`) and 👎 (`down`) given in the range; `upShare` (extension) is up / (up + down), omitted when nothing was rated.' }),
  /** Extension: every UTC day of the range on which answers were rated, oldest first, with that day's counts and 👍 share. */
  feedbackDays: z.array(DailyRatingsSchema).meta({ description: 'Extension: every UTC day of the range with ratings, oldest first, counted by when the rating was given.' }),
});
export type ChatbotStats = z.infer<typeof ChatbotStatsSchema>;
