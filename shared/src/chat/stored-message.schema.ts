import { z } from 'zod';
import { ChatMessageSchema } from './chat-message.schema.js';

/** Who sent a stored message: the visitor, the bot, or a team member (with their name when they have one). */
export const MessageSenderSchema = z.object({
  type: z.enum(['visitor', 'bot', 'member']),
  memberId: z.string().optional(),
  name: z.string().optional(),
});
export type MessageSender = z.infer<typeof MessageSenderSchema>;

/**
 * A saved message: the contract's `text` and `fromUser`, and (extension) who sent it. `sender` is
 * absent on messages saved before it existed; `fromUser` then tells visitor from bot.
 */
export const StoredMessageSchema = ChatMessageSchema.extend({
  sender: MessageSenderSchema.optional().meta({ description: 'Extension: `visitor`, `bot` or `member` (a team member, with `name` when known).' }),
  createdAt: z.int().optional().meta({ description: 'Extension: when a live message (handoff) was stored, Unix ms.' }),
});
export type StoredMessage = z.infer<typeof StoredMessageSchema>;
