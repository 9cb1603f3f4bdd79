import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { ChatMessageSchema } from '../chat/chat-message.schema.js';

/** Where a conversation happened. */
export const ConversationSourceTypeSchema = z.enum(['app', 'website', 'link', 'chatserver', 'automation']);
export type ConversationSourceType = z.infer<typeof ConversationSourceTypeSchema>;

export const ConversationSourceSchema = z.object({
  type: ConversationSourceTypeSchema,
  chatServerChannelId: z.string().optional(),
  messengerAppInfo: z.object({
    replyingPhoneNumberId: z.string(), replyingPhoneNumber: z.string(), senderPhoneNumber: z.string(), senderName: z.string(),
  }).partial().optional(),
  pageInfo: z.object({ pageId: z.string(), senderId: z.string(), senderName: z.string() }).partial().optional(),
  socialInfo: z.object({
    socialAccountId: z.string(), senderId: z.string(), senderUsername: z.string(), senderName: z.string(),
  }).partial().optional(),
});
export type ConversationSource = z.infer<typeof ConversationSourceSchema>;

/** Upper bound of messages stored in one conversation. */
export const MAX_CONVERSATION_MESSAGES = 1000;

/** Body of `POST /v1/conversation`. `override` (default true) replaces; false appends. */
export const ConversationSaveSchema = z.strictObject({
  chatbotId: IdSchema,
  messages: z.array(ChatMessageSchema).max(MAX_CONVERSATION_MESSAGES, `must contain at most ${MAX_CONVERSATION_MESSAGES} messages`),
  conversationId: IdSchema.optional(),
  override: z.boolean().default(true),
});
export type ConversationSave = z.infer<typeof ConversationSaveSchema>;

/** A saved conversation (the 201 of a save). `user` is omitted for visitor conversations. */
export const ConversationSchema = z.object({
  id: IdSchema,
  user: IdSchema.optional(),
  chatbot: IdSchema,
  createdAt: z.int(),
  messages: z.array(ChatMessageSchema),
  source: ConversationSourceSchema,
});
export type Conversation = z.infer<typeof ConversationSchema>;
