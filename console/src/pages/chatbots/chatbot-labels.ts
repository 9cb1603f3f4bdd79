import type { AccessLevel, PersonalityType, ToneType } from '@parley/shared';

/** Access levels in an owner's words, with what each means for visitors. */
export const ACCESS_LEVELS: Record<AccessLevel, { label: string; explains: string }> = {
  PUBLIC: { label: 'Public: anyone can chat', explains: 'The widget and the chat link work for every visitor.' },
  PRIVATE: { label: 'Password: visitors enter a password', explains: 'The widget asks visitors for the password before they can chat.' },
  PROTECTED: { label: 'Hidden: API only', explains: 'The widget and the chat link do not show; only calls with an API key reach the chatbot.' },
};

export const PERSONALITIES: Record<PersonalityType, string> = {
  ASSISTANT: 'Assistant: helpful and to the point', COACH: 'Coach: encouraging, guides step by step',
  ADVISOR: 'Advisor: weighs options and recommends', EXPERT: 'Expert: precise and detailed', CUSTOM: 'Custom: your own instructions',
};

export const TONES: Record<ToneType, string> = {
  HUMOROUS: 'Light-hearted, with some humour', FRIENDLY: 'Friendly and warm', FORMAL: 'Formal and polite', CUSTOM: 'Custom: your own instructions',
};
