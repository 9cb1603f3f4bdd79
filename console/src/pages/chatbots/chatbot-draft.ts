import {
  CHATBOT_DEFAULTS, ChatbotCreateSchema, ChatbotUpdateSchema, type AccessLevel, type Chatbot, type ChatbotCreateInput,
  type Model, type PersonalityType, type ToneType,
} from '@parley/shared';
import type { z } from 'zod';
import { lines } from './form-issues.js';

/** The chatbot form's fields as the owner edits them (text fields as typed). */
export interface ChatbotDraft {
  name: string;
  welcomeMessage: string;
  model: Model;
  accessLevel: AccessLevel;
  password: string;
  personalityType: PersonalityType;
  toneType: ToneType;
  customSystemPrompt: string;
  restrict: string;
  tags: string;
  resourceIds: string[];
}

export function newDraft(): ChatbotDraft {
  return {
    name: '', welcomeMessage: CHATBOT_DEFAULTS.welcomeMessage, model: CHATBOT_DEFAULTS.model, accessLevel: CHATBOT_DEFAULTS.accessLevel,
    password: '', personalityType: CHATBOT_DEFAULTS.personalityType, toneType: CHATBOT_DEFAULTS.toneType, customSystemPrompt: '',
    restrict: '', tags: '', resourceIds: [],
  };
}

/** A saved chatbot as a draft (personality and tone are not returned: the form hides them when editing). */
export function draftOf(chatbot: Chatbot): ChatbotDraft {
  return {
    ...newDraft(), name: chatbot.name, welcomeMessage: chatbot.welcomeMessage, model: chatbot.model, accessLevel: chatbot.accessLevel,
    customSystemPrompt: chatbot.customSystemPrompt ?? '', restrict: chatbot.restrictAnswersToResourcesContentResponse ?? '',
    tags: chatbot.tags.join(', '), resourceIds: [...chatbot.resources],
  };
}

/**
 * Whether the draft's password is sent: only for a PRIVATE chatbot, where the field is shown. A
 * password typed and then left by switching to another access level is not checked or sent.
 */
const sendsPassword = (draft: ChatbotDraft): boolean => draft.accessLevel === 'PRIVATE' && draft.password !== '';

/** The create body of a draft: empty optional fields are left out. */
export function createBodyOf(draft: ChatbotDraft): ChatbotCreateInput {
  return {
    name: draft.name, welcomeMessage: draft.welcomeMessage, model: draft.model, accessLevel: draft.accessLevel,
    personalityType: draft.personalityType, toneType: draft.toneType, resourceIds: draft.resourceIds, tags: lines(draft.tags),
    ...(sendsPassword(draft) ? { password: draft.password } : {}),
    ...(draft.customSystemPrompt ? { customSystemPrompt: draft.customSystemPrompt } : {}),
    ...(draft.restrict ? { restrictAnswersToResourcesContentResponse: draft.restrict } : {}),
  };
}

/** The update body of a draft: `restrict` "" removes the restriction; an empty password keeps the stored one. */
export function updateBodyOf(draft: ChatbotDraft): z.input<typeof ChatbotUpdateSchema> {
  return {
    name: draft.name, welcomeMessage: draft.welcomeMessage, model: draft.model, accessLevel: draft.accessLevel,
    resourceIds: draft.resourceIds, tags: lines(draft.tags), restrictAnswersToResourcesContentResponse: draft.restrict,
    ...(sendsPassword(draft) ? { password: draft.password } : {}),
    ...(draft.customSystemPrompt ? { customSystemPrompt: draft.customSystemPrompt } : {}),
  };
}

/** The schema a draft is checked with, the same the server applies. */
export const schemaFor = (creating: boolean): z.ZodType => (creating ? ChatbotCreateSchema : ChatbotUpdateSchema);
