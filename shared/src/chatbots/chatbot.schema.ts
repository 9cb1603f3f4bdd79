import { z } from 'zod';
import { ColorSchema, GradientColorsSchema } from '../common/color.schema.js';
import { IdSchema } from '../common/id.schema.js';
import { AccessLevelSchema, ModelSchema } from './chatbot-enums.schema.js';
import { ColorWarningSchema } from './color-warning.schema.js';
import { WebsiteIntegrationSchema } from './website-integration.schema.js';

/**
 * A chatbot as the API returns it. personalityType, toneType and the password are never returned;
 * optional fields that do not apply are omitted.
 */
export const ChatbotSchema = z.object({
  id: IdSchema,
  name: z.string(),
  welcomeMessage: z.string(),
  createdAt: z.int(),
  creator: IdSchema,
  organisation: IdSchema,
  resources: z.array(IdSchema),
  chatbotMessageColor: ColorSchema,
  userMessageColor: ColorSchema,
  conversationBackgroundColor: ColorSchema,
  secondaryBackgroundColor: ColorSchema,
  gradientColors: GradientColorsSchema.optional(),
  showBadge: z.boolean(),
  enabledEmoji: z.boolean(),
  model: ModelSchema,
  accessLevel: AccessLevelSchema,
  tags: z.array(z.string()),
  customSystemPrompt: z.string().optional(),
  restrictAnswersToResourcesContentResponse: z.string().optional(),
  websiteIntegration: WebsiteIntegrationSchema.optional(),
  /** Extension: the public URL of the avatar, once one is uploaded. */
  avatarUrl: z.string().optional(),
  /** Extension: colour settings the widget paints adjusted for contrast (absent when none). */
  warnings: z.array(ColorWarningSchema).optional(),
});
export type Chatbot = z.infer<typeof ChatbotSchema>;

export const ChatbotListSchema = z.array(ChatbotSchema);
