import { z } from 'zod';

/** Upper bound of one message's text. */
export const MAX_MESSAGE_CHARS = 32_000;

/** One turn of a conversation. */
export const ChatMessageSchema = z.strictObject({
  text: z.string().max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`),
  fromUser: z.boolean(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
