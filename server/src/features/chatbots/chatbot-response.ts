import { colorWarningsOf, type Chatbot } from '@parley/shared';
import type { ChatbotRecord } from './chatbots.repository.js';

/** The public URL of a chatbot's avatar; the version query busts caches after an upload. */
export function avatarUrlOf(publicUrl: string, record: Pick<ChatbotRecord, 'id' | 'avatarUpdatedAt'>): string | undefined {
  return record.avatarUpdatedAt === null ? undefined : `${publicUrl}/v1/embed/${record.id}/avatar?v=${record.avatarUpdatedAt}`;
}

/**
 * Maps a stored chatbot to the API's shape: personalityType, toneType and the password hash are
 * never returned, and optional fields that do not apply are omitted (decisions.md § Identifiers).
 */
export function toChatbotResponse(record: ChatbotRecord, publicUrl: string): Chatbot {
  const avatarUrl = avatarUrlOf(publicUrl, record);
  const warnings = colorWarningsOf(record);
  return {
    id: record.id,
    name: record.name,
    welcomeMessage: record.welcomeMessage,
    createdAt: record.createdAt,
    creator: record.creator,
    organisation: record.organisationId,
    resources: record.resourceIds,
    chatbotMessageColor: record.chatbotMessageColor,
    userMessageColor: record.userMessageColor,
    conversationBackgroundColor: record.conversationBackgroundColor,
    secondaryBackgroundColor: record.secondaryBackgroundColor,
    ...(record.gradientColors ? { gradientColors: record.gradientColors } : {}),
    showBadge: record.showBadge,
    enabledEmoji: record.enabledEmoji,
    model: record.model,
    accessLevel: record.accessLevel,
    tags: record.tags,
    ...(record.customSystemPrompt !== null ? { customSystemPrompt: record.customSystemPrompt } : {}),
    ...(record.restrictAnswersToResourcesContentResponse !== null
      ? { restrictAnswersToResourcesContentResponse: record.restrictAnswersToResourcesContentResponse } : {}),
    ...(record.websiteIntegration ? { websiteIntegration: record.websiteIntegration } : {}),
    ...(avatarUrl ? { avatarUrl } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
