import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { ChatMessageSchema, type ChatMessage } from '../chat/chat-message.schema.js';
import { StoredMessageSchema } from '../chat/stored-message.schema.js';

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

/**
 * Upper bound of the text stored in one conversation, all messages together (about 60,000 words:
 * far beyond a long support chat). Appends stop there, so no one can grow a conversation without
 * end, and everything that reads one whole (the listing, the console, the analysis) stays bounded.
 */
export const MAX_CONVERSATION_CHARS = 400_000;

/** The characters of text in some messages, all together. */
export function conversationChars(messages: readonly ChatMessage[]): number {
  let sum = 0;
  for (const message of messages) sum += message.text.length;
  return sum;
}

/** Body of `POST /v1/conversation`. `override` (default true) replaces; false appends. */
export const ConversationSaveSchema = z.strictObject({
  chatbotId: IdSchema,
  messages: z.array(ChatMessageSchema).max(MAX_CONVERSATION_MESSAGES, `must contain at most ${MAX_CONVERSATION_MESSAGES} messages`)
    .refine((messages) => conversationChars(messages) <= MAX_CONVERSATION_CHARS, `must hold at most ${MAX_CONVERSATION_CHARS} characters of text in all`),
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
  messages: z.array(StoredMessageSchema),
  source: ConversationSourceSchema,
});
export type Conversation = z.infer<typeof ConversationSchema>;
