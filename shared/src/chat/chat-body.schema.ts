import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { ChatMessageSchema } from './chat-message.schema.js';
import { AnswerMetaSchema } from './chat-source.schema.js';

/** The conversation sent to a chat endpoint: 1 to 100 messages, the last one from the user. */
export const ChatConversationSchema = z
  .array(ChatMessageSchema)
  .min(1, 'must contain at least 1 message')
  .max(100, 'must contain at most 100 messages')
  .superRefine((messages, ctx) => {
    const last = messages.at(-1);
    if (last && !last.fromUser) ctx.addIssue({ code: 'custom', message: 'must end with a message from the user' });
    if (last && last.fromUser && last.text.trim() === '') {
      ctx.addIssue({ code: 'custom', message: 'must end with a non-empty question' });
    }
  });

/** Body of `POST /v1/chatbot/chat` and `/v1/chatbot/chat-stream`. */
export const ChatbotChatBodySchema = z.strictObject({
  chatbotId: IdSchema,
  conversation: ChatConversationSchema,
});
export type ChatbotChatBody = z.infer<typeof ChatbotChatBodySchema>;

/** Body of `POST /v1/resource/chat` and `/v1/resource/chat-stream`. */
export const ResourceChatBodySchema = z.strictObject({
  resourceId: IdSchema,
  conversation: ChatConversationSchema,
});
export type ResourceChatBody = z.infer<typeof ResourceChatBodySchema>;

/** What `text` is, for the API's clients: the answer alone, its sources beside it. */
const ANSWER_TEXT_DESCRIPTION = 'The answer. It carries no trailing "Source: …" line: where the answer came from is in '
  + '`sources` (plain answers) or the `streamEnd` event\'s `data.sources` (streams). A restricted chatbot with nothing relevant '
  + 'answers exactly its `restrictAnswersToResourcesContentResponse` text (`refused: true`); to a visitor writing in a language its '
  + 'resources are not written in, it says so in the visitor\'s language instead (`refused: true` too).';

/** The 201 answer of the non-streaming chat endpoints: the contract's `text`, plus the answer's metadata (extension). */
export const ChatResponseSchema = z.object({ text: z.string().describe(ANSWER_TEXT_DESCRIPTION) }).extend(AnswerMetaSchema.partial().shape);
export type ChatResponse = z.infer<typeof ChatResponseSchema>;
