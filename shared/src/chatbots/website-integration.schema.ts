import { z } from 'zod';
import { ColorSchema } from '../common/color.schema.js';
import { BubbleAlignmentSchema } from './chatbot-enums.schema.js';
import { OfficeHoursSchema } from './office-hours.schema.js';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/** A host name the widget may be embedded on; `*.example.com` matches its subdomains only. */
export const AllowedDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(new RegExp(`^(?:\\*\\.)?(?:${LABEL}\\.)*${LABEL}$`), 'must be a host name such as example.com or *.example.com');

const fields = {
  allowedDomains: z.array(AllowedDomainSchema).max(100, 'must contain at most 100 domains'),
  bubbleAlignment: BubbleAlignmentSchema,
  bubblePopupMessages: z.array(z.string().min(1, 'must not be empty').max(500, 'must be at most 500 characters'))
    .max(5, 'must contain at most 5 messages'),
  welcomeHeaderTitle: z.string().max(200, 'must be at most 200 characters'),
  welcomeHeaderSubtitle: z.string().max(500, 'must be at most 500 characters'),
  locale: z.string().regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/, 'must be a language tag such as en, ar or pt-BR')
    .describe('Extension: the language of the widget\'s own texts (a BCP 47 tag). Absent: the visitor\'s browser language.'),
  suggestedQuestions: z.array(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'))
    .max(5, 'must contain at most 5 questions')
    .describe('Extension: starter questions the widget offers on an empty conversation; a click asks one.'),
  leadOfferAfterTurns: z.int().min(1, 'must be at least 1').max(100, 'must be at most 100')
    .describe('Extension: after this many answers the widget offers the lead form. Absent: only after a refusal or a handoff request.'),
  brandColor: ColorSchema
    .describe('Extension: the brand colour the widget\'s header (without a gradient), launcher and send button take; the widget '
      + 'picks a text colour that reads on it at 4.5:1 or better. Absent: the visitor message colour.'),
  dailyVisitorMessages: z.int().min(0, 'must be at least 0').max(10_000_000, 'must be at most 10000000')
    .describe('Extension: chat messages the chatbot answers its anonymous visitors per 24 hours, all together (429 beyond). '
      + 'Absent: the operator\'s EMBED_CHATBOT_DAILY_MESSAGES. Never shown to visitors.'),
  officeHours: OfficeHoursSchema
    .describe('Extension: when the team answers live (issue 35): on these weekdays (1 Monday … 7 Sunday), from–to in the time zone, '
      + 'a visitor who asks for a person waits for one (WAITING) even when nobody is active in the console. Never shown to visitors.'),
};

/** The extension sub-fields (decisions.md leaves the widget's language and prompts open). */
const extensions = {
  locale: fields.locale.optional(),
  suggestedQuestions: fields.suggestedQuestions.optional(),
  leadOfferAfterTurns: fields.leadOfferAfterTurns.optional(),
  dailyVisitorMessages: fields.dailyVisitorMessages.optional(),
  officeHours: fields.officeHours.optional(),
  brandColor: fields.brandColor.optional(),
};

/** `websiteIntegration` as the API returns it. */
export const WebsiteIntegrationSchema = z.object({
  allowedDomains: fields.allowedDomains,
  bubbleAlignment: fields.bubbleAlignment,
  bubblePopupMessages: fields.bubblePopupMessages,
  welcomeHeaderTitle: fields.welcomeHeaderTitle.optional(),
  welcomeHeaderSubtitle: fields.welcomeHeaderSubtitle.optional(),
  ...extensions,
});
export type WebsiteIntegration = z.infer<typeof WebsiteIntegrationSchema>;

/** `websiteIntegration` in a create body: every sub-field optional, with defaults. */
export const WebsiteIntegrationCreateSchema = z.strictObject({
  allowedDomains: fields.allowedDomains.default([]),
  bubbleAlignment: fields.bubbleAlignment.default('right'),
  bubblePopupMessages: fields.bubblePopupMessages.default([]),
  welcomeHeaderTitle: fields.welcomeHeaderTitle.optional(),
  welcomeHeaderSubtitle: fields.welcomeHeaderSubtitle.optional(),
  ...extensions,
});

/** The extension sub-fields of an update: `null` removes one (back to its default). */
const removableExtensions = {
  locale: fields.locale.nullable().optional().describe('Extension: the widget\'s language; `null` removes it (the visitor\'s browser language).'),
  suggestedQuestions: fields.suggestedQuestions.nullable().optional().describe('Extension: starter questions; `null` removes them.'),
  leadOfferAfterTurns: fields.leadOfferAfterTurns.nullable().optional()
    .describe('Extension: answers before the lead form is offered; `null` removes it (offered only after a refusal or a handoff request).'),
  dailyVisitorMessages: fields.dailyVisitorMessages.nullable().optional()
    .describe('Extension: visitors\' messages per 24 hours; `null` removes it (the operator\'s EMBED_CHATBOT_DAILY_MESSAGES).'),
  officeHours: fields.officeHours.nullable().optional()
    .describe('Extension: when the team answers live; `null` removes them (available only while someone uses the console).'),
  brandColor: fields.brandColor.nullable().optional().describe('Extension: the brand colour; `null` removes it.'),
};

/** `websiteIntegration` in an update body: given sub-fields replace the stored ones; `null` removes an extension sub-field. */
export const WebsiteIntegrationUpdateSchema = z.strictObject({
  allowedDomains: fields.allowedDomains.optional(),
  bubbleAlignment: fields.bubbleAlignment.optional(),
  bubblePopupMessages: fields.bubblePopupMessages.optional(),
  welcomeHeaderTitle: fields.welcomeHeaderTitle.optional(),
  welcomeHeaderSubtitle: fields.welcomeHeaderSubtitle.optional(),
  ...removableExtensions,
});
export type WebsiteIntegrationUpdate = z.infer<typeof WebsiteIntegrationUpdateSchema>;
