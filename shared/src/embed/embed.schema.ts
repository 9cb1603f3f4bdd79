import { z } from 'zod';
import { ColorSchema, GradientColorsSchema } from '../common/color.schema.js';
import { IdSchema } from '../common/id.schema.js';
import { ChatConversationSchema } from '../chat/chat-body.schema.js';
import { ChatMessageSchema } from '../chat/chat-message.schema.js';
import { AccessLevelSchema, BubbleAlignmentSchema } from '../chatbots/chatbot-enums.schema.js';
import { MAX_CONVERSATION_MESSAGES, ConversationSchema, conversationChars } from '../conversations/conversation.schema.js';

/**
 * What the widget fetches: appearance only. Never the password, allowedDomains or resource ids
 * (decisions.md § Public embed traffic).
 */
export const EmbedConfigSchema = z.object({
  id: IdSchema,
  name: z.string(),
  welcomeMessage: z.string(),
  accessLevel: AccessLevelSchema,
  chatbotMessageColor: ColorSchema,
  userMessageColor: ColorSchema,
  conversationBackgroundColor: ColorSchema,
  secondaryBackgroundColor: ColorSchema,
  gradientColors: GradientColorsSchema.optional(),
  showBadge: z.boolean(),
  enabledEmoji: z.boolean(),
  avatarUrl: z.string().optional(),
  bubbleAlignment: BubbleAlignmentSchema,
  bubblePopupMessages: z.array(z.string()),
  welcomeHeaderTitle: z.string().optional(),
  welcomeHeaderSubtitle: z.string().optional(),
  /** Extension: `websiteIntegration.locale`; absent means the visitor's browser language. */
  locale: z.string().optional(),
  /** Extension: `websiteIntegration.suggestedQuestions` (empty when none). */
  suggestedQuestions: z.array(z.string()).optional(),
  /** Extension: `websiteIntegration.leadOfferAfterTurns`. */
  leadOfferAfterTurns: z.int().optional(),
  /** Extension: `websiteIntegration.brandColor` (header without a gradient, launcher, send button). */
  brandColor: z.string().optional(),
});
export type EmbedConfig = z.infer<typeof EmbedConfigSchema>;

/** Body of `POST /v1/embed/{chatbotId}/session`. */
export const EmbedSessionBodySchema = z.strictObject({ password: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters') });

/** A signed, expiring visitor session of a PRIVATE chatbot; sent as `Authorization: Bearer`. */
export const EmbedSessionSchema = z.object({ token: z.string(), expiresAt: z.int() });
export type EmbedSession = z.infer<typeof EmbedSessionSchema>;

/**
 * Body of `POST /v1/embed/{chatbotId}/chat-stream`. A visitor continuing a saved conversation sends
 * its id and `visitorToken`: the chatbot's limits for all visitors together then spare it (its own
 * per-visitor limits still apply).
 */
export const EmbedChatBodySchema = z
  .strictObject({
    conversation: ChatConversationSchema,
    conversationId: IdSchema.optional(),
    visitorToken: z.string().min(1).max(200).optional(),
  })
  .refine((body) => body.conversationId === undefined || body.visitorToken !== undefined, {
    message: 'is required with conversationId', path: ['visitorToken'],
  });
export type EmbedChatBody = z.infer<typeof EmbedChatBodySchema>;

/** The most text one anonymous save may carry, all messages together (a visitor cannot fill the table). */
export const MAX_VISITOR_SAVE_CHARS = 100_000;

/** Body of `POST /v1/embed/{chatbotId}/conversation`; extending one needs its `visitorToken`. */
export const EmbedConversationSaveSchema = z
  .strictObject({
    messages: z.array(ChatMessageSchema).max(MAX_CONVERSATION_MESSAGES, `must contain at most ${MAX_CONVERSATION_MESSAGES} messages`)
      .refine((messages) => conversationChars(messages) <= MAX_VISITOR_SAVE_CHARS,
        `must hold at most ${MAX_VISITOR_SAVE_CHARS} characters of text in all`),
    conversationId: IdSchema.optional(),
    visitorToken: z.string().min(1).max(200).optional(),
    override: z.boolean().default(true),
  })
  .refine((body) => body.conversationId === undefined || body.visitorToken !== undefined, {
    message: 'is required with conversationId', path: ['visitorToken'],
  });
export type EmbedConversationSave = z.infer<typeof EmbedConversationSaveSchema>;

/** A visitor's saved conversation, with the secret that lets it extend the conversation later. */
export const EmbedConversationSchema = ConversationSchema.extend({ visitorToken: z.string() });
export type EmbedConversation = z.infer<typeof EmbedConversationSchema>;
