import { z } from 'zod';
import { ColorSchema, GradientColorsSchema } from '../common/color.schema.js';
import { IdSchema } from '../common/id.schema.js';
import { TagsSchema } from '../common/tags.schema.js';
import {
  AccessLevelSchema, CHATBOT_DEFAULTS, ModelSchema, PersonalityTypeSchema, ToneTypeSchema,
} from './chatbot-enums.schema.js';
import { ChatbotPasswordSchema } from './chatbot-password.schema.js';
import { WebsiteIntegrationCreateSchema } from './website-integration.schema.js';

/** Bounds shared by the create and update bodies. */
export const chatbotFields = {
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  welcomeMessage: z.string().max(2000, 'must be at most 2000 characters'),
  resourceIds: z.array(IdSchema).max(1000, 'must contain at most 1000 ids'),
  customSystemPrompt: z.string().min(1, 'must not be empty').max(20000, 'must be at most 20000 characters'),
  restrictAnswersToResourcesContentResponse: z.string().max(2000, 'must be at most 2000 characters'),
};

/**
 * Body of `POST /v1/chatbot`. Only `name` is required. `customSystemPrompt` needs personalityType
 * and toneType both `CUSTOM`; `password` is required for a `PRIVATE` chatbot (decisions.md § Chatbots).
 */
export const ChatbotCreateSchema = z
  .strictObject({
    name: chatbotFields.name,
    resourceIds: chatbotFields.resourceIds.default([]),
    showBadge: z.boolean().default(CHATBOT_DEFAULTS.showBadge),
    model: ModelSchema.default(CHATBOT_DEFAULTS.model),
    accessLevel: AccessLevelSchema.default(CHATBOT_DEFAULTS.accessLevel),
    welcomeMessage: chatbotFields.welcomeMessage.default(CHATBOT_DEFAULTS.welcomeMessage),
    chatbotMessageColor: ColorSchema.default(CHATBOT_DEFAULTS.chatbotMessageColor),
    userMessageColor: ColorSchema.default(CHATBOT_DEFAULTS.userMessageColor),
    conversationBackgroundColor: ColorSchema.default(CHATBOT_DEFAULTS.conversationBackgroundColor),
    secondaryBackgroundColor: ColorSchema.default(CHATBOT_DEFAULTS.secondaryBackgroundColor),
    gradientColors: GradientColorsSchema.optional(),
    enabledEmoji: z.boolean().default(CHATBOT_DEFAULTS.enabledEmoji),
    personalityType: PersonalityTypeSchema.default(CHATBOT_DEFAULTS.personalityType),
    toneType: ToneTypeSchema.default(CHATBOT_DEFAULTS.toneType),
    customSystemPrompt: chatbotFields.customSystemPrompt.optional(),
    restrictAnswersToResourcesContentResponse: chatbotFields.restrictAnswersToResourcesContentResponse.optional(),
    tags: TagsSchema.default([]),
    password: ChatbotPasswordSchema.optional(),
    websiteIntegration: WebsiteIntegrationCreateSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.customSystemPrompt !== undefined && (body.personalityType !== 'CUSTOM' || body.toneType !== 'CUSTOM')) {
      ctx.addIssue({ code: 'custom', path: ['customSystemPrompt'], message: 'is allowed only when personalityType and toneType are both CUSTOM' });
    }
    if (body.accessLevel === 'PRIVATE' && body.password === undefined) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'is required when accessLevel is PRIVATE' });
    }
  });
export type ChatbotCreate = z.infer<typeof ChatbotCreateSchema>;
export type ChatbotCreateInput = z.input<typeof ChatbotCreateSchema>;
