import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { PageQuerySchema } from '../common/page.schema.js';
import { StoredMessageSchema } from '../chat/stored-message.schema.js';
import { ConversationSourceSchema } from '../conversations/conversation.schema.js';

/**
 * Who has a conversation (issue 35): `BOT` answers (the default), `WAITING` the visitor asked for a
 * person, `HUMAN` a team member has it (the bot is silent), `CLOSED` the team closed it.
 */
export const ConversationStateSchema = z.enum(['BOT', 'WAITING', 'HUMAN', 'CLOSED']);
export type ConversationState = z.infer<typeof ConversationStateSchema>;

/** A team member as the visitor and the inbox see them; `name` null for callers without a member (a plain API key). */
export const TeamMemberSchema = z.object({
  memberId: z.string().nullable(),
  name: z.string().nullable(),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;

/** The most characters of one team reply. */
export const MAX_REPLY_CHARS = 4000;

/** Body of `POST /v1/conversation/{id}/messages`. */
export const TeamReplyBodySchema = z.strictObject({
  text: z.string().trim().min(1, 'must not be empty').max(MAX_REPLY_CHARS, `must be at most ${MAX_REPLY_CHARS} characters`),
});

/** `{id}`: the conversation's id. */
export const ConversationPathSchema = z.strictObject({ id: IdSchema.meta({ description: 'The conversation id.' }) });

/** States filter: one state, repeated or comma-separated. */
export const StatesQuerySchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((part) => part.trim()).filter(Boolean))
  .pipe(z.array(ConversationStateSchema));

/** `GET /v1/inbox`: the organisation's conversations, newest activity first, paged. */
export const InboxQuerySchema = PageQuerySchema.extend({
  state: StatesQuerySchema.optional().meta({ description: 'Only conversations in these states (repeat or comma-separate); absent: every state.' }),
});
export type InboxQuery = z.infer<typeof InboxQuerySchema>;

/** One conversation of the inbox. */
export const InboxItemSchema = z.object({
  id: IdSchema,
  chatbotId: IdSchema,
  chatbotName: z.string(),
  state: ConversationStateSchema,
  createdAt: z.int(),
  /** The last message or state change, Unix ms. */
  lastActivityAt: z.int(),
  /** When the state last changed (while `WAITING`: since when the visitor waits), Unix ms. */
  stateChangedAt: z.int().nullable(),
  heldBy: TeamMemberSchema.nullable(),
  source: ConversationSourceSchema,
  messages: z.array(StoredMessageSchema),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

export const InboxPageSchema = z.object({
  conversations: z.array(InboxItemSchema),
  nextCursor: z.string().optional(),
});
export type InboxPage = z.infer<typeof InboxPageSchema>;

/** What a state change answers: the conversation's id, state and holder. */
export const ConversationStatusSchema = z.object({
  id: IdSchema,
  state: ConversationStateSchema,
  heldBy: TeamMemberSchema.nullable(),
});
export type ConversationStatus = z.infer<typeof ConversationStatusSchema>;

/**
 * One live event (SSE `data:`; its `id:` is the event's number, for `Last-Event-ID`). `message`: a
 * message stored in the conversation at `index`; `state`: the conversation's new state.
 */
export const LiveEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message'), conversationId: IdSchema, chatbotId: IdSchema, index: z.int(), message: StoredMessageSchema,
  }),
  z.object({
    type: z.literal('state'), conversationId: IdSchema, chatbotId: IdSchema, state: ConversationStateSchema, heldBy: TeamMemberSchema.nullable(),
  }),
]);
export type LiveEvent = z.infer<typeof LiveEventSchema>;

/** Body of `POST /v1/embed/{chatbotId}/handoff`: the visitor's saved conversation and its secret. */
export const HandoffRequestSchema = z.strictObject({
  conversationId: IdSchema,
  visitorToken: z.string().min(1).max(200),
});
export type HandoffRequest = z.infer<typeof HandoffRequestSchema>;

/** The answer to a handoff request: `WAITING` when someone is coming, else the state stays and the widget offers the lead form. */
export const HandoffOutcomeSchema = z.object({
  state: ConversationStateSchema,
  /** Whether someone of the team is available (active in the console lately, or within the chatbot's office hours). */
  available: z.boolean(),
});
export type HandoffOutcome = z.infer<typeof HandoffOutcomeSchema>;

/** Query of the visitor's event stream. The secret may come as `X-Visitor-Token` instead (preferred: it stays out of logs). */
export const VisitorStreamParamsSchema = z.strictObject({
  chatbotId: IdSchema,
  conversationId: IdSchema,
});

