import { z } from 'zod';
import { ColorSchema, GradientColorsSchema } from '../common/color.schema.js';
import { TagsSchema } from '../common/tags.schema.js';
import { AccessLevelSchema, ModelSchema } from './chatbot-enums.schema.js';
import { ChatbotPasswordSchema } from './chatbot-password.schema.js';
import { chatbotFields } from './chatbot-create.schema.js';
import { WebsiteIntegrationUpdateSchema } from './website-integration.schema.js';

/**
 * `gradientColors` on update: a string of 4 comma-separated colors, `""` to remove the gradient,
 * or an array of 4 colors. Parses to the 4 colors, or `null` for removal.
 */
export const GradientColorsUpdateSchema = z.union([
  z.literal('').transform(() => null),
  z.string().transform((value, ctx) => {
    const parsed = GradientColorsSchema.safeParse(value.split(',').map((color) => color.trim()));
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'must be 4 comma-separated hex colors, or "" to remove the gradient' });
    return z.NEVER;
  }),
  GradientColorsSchema,
], { error: 'must be 4 comma-separated hex colors, or "" to remove the gradient' });

/**
 * Body of `PUT /v1/chatbot/{id}`: every field optional; absent fields stay unchanged.
 * `restrictAnswersToResourcesContentResponse: ""` removes the restriction.
 */
export const ChatbotUpdateSchema = z.strictObject({
  name: chatbotFields.name.optional(),
  welcomeMessage: chatbotFields.welcomeMessage.optional(),
  resourceIds: chatbotFields.resourceIds.optional(),
  chatbotMessageColor: ColorSchema.optional(),
  userMessageColor: ColorSchema.optional(),
  conversationBackgroundColor: ColorSchema.optional(),
  secondaryBackgroundColor: ColorSchema.optional(),
  gradientColors: GradientColorsUpdateSchema.optional(),
  showBadge: z.boolean().optional(),
  enabledEmoji: z.boolean().optional(),
  customSystemPrompt: chatbotFields.customSystemPrompt.optional(),
  model: ModelSchema.optional(),
  restrictAnswersToResourcesContentResponse: chatbotFields.restrictAnswersToResourcesContentResponse.optional(),
  accessLevel: AccessLevelSchema.optional(),
  tags: TagsSchema.optional(),
  password: ChatbotPasswordSchema.optional(),
  websiteIntegration: WebsiteIntegrationUpdateSchema.optional(),
});
export type ChatbotUpdate = z.infer<typeof ChatbotUpdateSchema>;
