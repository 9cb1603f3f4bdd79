import type { Conversation } from '@parley/shared';
import type { ConversationRecord } from './conversations.repository.js';

/** The save response: `user` only for conversations saved with an API key. */
export function toConversationResponse(record: ConversationRecord): Conversation {
  return {
    id: record.id,
    ...(record.userId ? { user: record.userId } : {}),
    chatbot: record.chatbotId,
    createdAt: record.createdAt,
    messages: record.messages,
    source: record.source,
  };
}
