import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { PageQuerySchema } from '../common/page.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';
import { StoredMessageSchema } from '../chat/stored-message.schema.js';
import { ConversationStateSchema, StatesQuerySchema, TeamMemberSchema } from '../handoff/handoff.schema.js';
import { FeedbackRatingSchema } from '../feedback/feedback.schema.js';
import { ConversationSourceSchema, ConversationSourceTypeSchema } from './conversation.schema.js';

/** `PENDING → IN_PROGRESS → DONE | FAILED`; re-analysed after each change. */
export const AnalysisStatusSchema = z.enum(['PENDING', 'IN_PROGRESS', 'DONE', 'FAILED']);
export type AnalysisStatus = z.infer<typeof AnalysisStatusSchema>;

export const AnalysisResultSchema = z.object({
  summary: z.string(),
  extractedData: z.object({
    keyPoints: z.array(z.string()),
    nextSteps: z.array(z.string()),
    sentimentAnalysis: z.string(),
    intentClassification: z.string(),
  }),
  customExtractedData: z.record(z.string(), z.unknown()),
  /** Extension: visitor questions the chatbot could not answer from its resources. */
  unansweredQuestions: z.array(z.string()).optional(),
});
export type AnalysisResult = z.infer<typeof AnalysisResultSchema>;

export const ConversationAnalysisSchema = z.object({
  status: AnalysisStatusSchema,
  result: AnalysisResultSchema.optional(),
});
export type ConversationAnalysis = z.infer<typeof ConversationAnalysisSchema>;

export const ConversationListItemSchema = z.object({
  id: IdSchema,
  createdAt: z.int(),
  source: ConversationSourceSchema,
  messages: z.array(StoredMessageSchema),
  analysis: ConversationAnalysisSchema,
  /** Extension: who has the conversation (issue 35). */
  state: ConversationStateSchema.meta({ description: 'Extension: `BOT`, `WAITING` (the visitor asked for a person), `HUMAN` (a team member has it) or `CLOSED`.' }),
  /** Extension: the team member holding it while `HUMAN`. */
  heldBy: TeamMemberSchema.optional().meta({ description: 'Extension: the team member who has the conversation (while `HUMAN`).' }),
  /** Extension: the visitor's 👍/👎 on the chatbot's answers, by `messageIndex`; omitted when none was given. */
  feedback: z.array(z.object({
    messageIndex: z.int(),
    rating: FeedbackRatingSchema,
    comment: z.string().optional(),
    createdAt: z.int(),
  })).optional().meta({ description: 'Extension: the visitor\'s 👍/👎 (`up`/`down`) and comment on answers, by 0-based `messageIndex` in `messages`; omitted when none.' }),
});
export type ConversationListItem = z.infer<typeof ConversationListItemSchema>;

/** `GET /v1/conversation/{chatbotId}`: the chatbot's conversations in a range, newest first. */
export const ConversationListingSchema = z.object({
  chatbotName: z.string(),
  startInterval: z.iso.datetime(),
  endInterval: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  conversations: z.array(ConversationListItemSchema),
  /** Extension: present on a paged listing (`limit` or `cursor` given) while more conversations follow. */
  nextCursor: z.string().optional(),
});
export type ConversationListing = z.infer<typeof ConversationListingSchema>;

/** `sources` may repeat or be comma-separated; absent or empty means every source. */
export const SourcesQuerySchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((part) => part.trim()).filter(Boolean))
  .pipe(z.array(ConversationSourceTypeSchema));

export const ConversationListingQuerySchema = TimeRangeQuerySchema.extend({
  sources: SourcesQuerySchema.optional(),
  ...PageQuerySchema.shape,
  search: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional()
    .meta({ description: 'Extension: only conversations with a message containing this text (case-insensitive).' }),
  rating: FeedbackRatingSchema.optional()
    .meta({ description: 'Extension: only conversations where the visitor rated at least one answer `up` (👍) or `down` (👎).' }),
  state: StatesQuerySchema.optional()
    .meta({ description: 'Extension: only conversations in these states (`BOT`, `WAITING`, `HUMAN`, `CLOSED`; repeat or comma-separate).' }),
});
export type ConversationListingQuery = z.infer<typeof ConversationListingQuerySchema>;
