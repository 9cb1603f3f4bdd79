import type { Conversation, ConversationListItem } from '@parley/shared';
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

/**
 * One item of the listing. `analysis.result` is the latest finished analysis; while a changed
 * conversation is re-analysed (`PENDING`, `IN_PROGRESS`) it still shows the previous one.
 */
export function toConversationListItem(record: ConversationRecord): ConversationListItem {
  return {
    id: record.id,
    createdAt: record.createdAt,
    source: record.source,
    messages: record.messages,
    analysis: { status: record.analysisStatus, ...(record.analysisResult ? { result: record.analysisResult } : {}) },
  };
}
