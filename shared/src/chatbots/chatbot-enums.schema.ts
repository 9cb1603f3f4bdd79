import { z } from 'zod';

/** The API's model names; each family maps to a provider in the server's config. */
export const ModelSchema = z.enum([
  'alpha-4o-mini', 'alpha-5-mini', 'alpha-realtime', 'alpha-4o-mini-realtime-preview',
  'beta-sonnet-4.6', 'beta-haiku-4.5', 'gamma-3-pro', 'gamma-3-flash',
]);
export type Model = z.infer<typeof ModelSchema>;

/** PUBLIC: open to anyone; PRIVATE: needs the chatbot password; PROTECTED: API key only. */
export const AccessLevelSchema = z.enum(['PUBLIC', 'PRIVATE', 'PROTECTED']);
export type AccessLevel = z.infer<typeof AccessLevelSchema>;

export const PersonalityTypeSchema = z.enum(['ASSISTANT', 'COACH', 'ADVISOR', 'EXPERT', 'CUSTOM']);
export type PersonalityType = z.infer<typeof PersonalityTypeSchema>;

export const ToneTypeSchema = z.enum(['HUMOROUS', 'FRIENDLY', 'FORMAL', 'CUSTOM']);
export type ToneType = z.infer<typeof ToneTypeSchema>;

export const BubbleAlignmentSchema = z.enum(['left', 'right']);
export type BubbleAlignment = z.infer<typeof BubbleAlignmentSchema>;

/** Defaults of a new chatbot (service-api.md § Chatbot, decisions.md § Chatbots). */
export const CHATBOT_DEFAULTS = {
  model: 'alpha-4o-mini',
  accessLevel: 'PUBLIC',
  personalityType: 'ASSISTANT',
  toneType: 'FRIENDLY',
  welcomeMessage: 'Hi! How can I help you today?',
  chatbotMessageColor: '#F6F7F8',
  userMessageColor: '#E0EEFA',
  conversationBackgroundColor: '#FFFFFF',
  secondaryBackgroundColor: '#F6F7F8',
  showBadge: false,
  enabledEmoji: false,
  bubbleAlignment: 'right',
} as const satisfies {
  model: Model; accessLevel: AccessLevel; personalityType: PersonalityType; toneType: ToneType;
  bubbleAlignment: BubbleAlignment; [key: string]: unknown;
};
