import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/**
 * The events an organisation can be told about (extension). `conversation.waiting_message` (a
 * visitor writes while waiting for a person) is declared for live handoff, which emits it.
 */
export const NotificationEventTypeSchema = z.enum([
  'lead.created', 'conversation.handoff_requested', 'conversation.waiting_message', 'feedback.created', 'resource.processed',
]);
export type NotificationEventType = z.infer<typeof NotificationEventTypeSchema>;

/** The event types, in documentation order. */
export const NOTIFICATION_EVENT_TYPES = NotificationEventTypeSchema.options;

const EventListSchema = z.array(NotificationEventTypeSchema).min(1, 'must name at least one event')
  .max(NOTIFICATION_EVENT_TYPES.length).refine((events) => new Set(events).size === events.length, 'must not name an event twice');

/** An http(s) URL a webhook is sent to; private and loopback addresses are refused unless the operator allows them. */
export const WebhookUrlSchema = z.string().trim().max(2000, 'must be at most 2000 characters')
  .refine((value) => { try { return ['http:', 'https:'].includes(new URL(value).protocol); } catch { return false; } }, 'must be an http or https URL');

/** Body of `POST /v1/webhook` (extension). */
export const WebhookCreateBodySchema = z.strictObject({
  url: WebhookUrlSchema,
  events: EventListSchema,
  description: z.string().trim().max(200, 'must be at most 200 characters').optional(),
});
export type WebhookCreateBody = z.infer<typeof WebhookCreateBodySchema>;

/** Body of `PUT /v1/webhook/{id}` (extension): the fields given replace the stored ones; `enabled: true` re-enables a disabled endpoint. */
export const WebhookUpdateBodySchema = z.strictObject({
  url: WebhookUrlSchema.optional(),
  events: EventListSchema.optional(),
  description: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBodySchema>;

/** A webhook endpoint (its secret is shown only when created or rotated). */
export const WebhookSchema = z.object({
  id: IdSchema,
  url: z.string(),
  events: z.array(NotificationEventTypeSchema),
  description: z.string().optional(),
  /** False once the endpoint failed for a day (or its owner turned it off); `PUT` with `enabled: true` turns it on again. */
  enabled: z.boolean(),
  /** Why the service disabled it. */
  disabledReason: z.string().optional(),
  createdAt: z.int(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** A webhook with its signing secret (`whsec_…`), returned once by creation and by rotation. */
export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().describe('The Standard Webhooks signing secret (`whsec_` and base64). Shown only now: store it.'),
});
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;

export const WebhookListSchema = z.array(WebhookSchema);

export const WebhookDeliveryStatusSchema = z.enum(['PENDING', 'DELIVERED', 'FAILED']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatusSchema>;

/** One message to one endpoint and how sending it went. */
export const WebhookDeliverySchema = z.object({
  /** The message id, sent as `webhook-id` on every attempt (receivers deduplicate by it). */
  id: z.string(),
  type: NotificationEventTypeSchema.or(z.literal('webhook.test')),
  status: WebhookDeliveryStatusSchema,
  attempts: z.int(),
  /** The HTTP status of the last attempt, when the endpoint answered. */
  responseStatus: z.int().optional(),
  /** Why the last attempt failed. */
  lastError: z.string().optional(),
  /** When the next attempt is due (Unix ms), while PENDING. */
  nextAttemptAt: z.int().optional(),
  createdAt: z.int(),
  deliveredAt: z.int().optional(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z.array(WebhookDeliverySchema);

/** One address that is mailed, and for which events. */
export const NotificationRecipientSchema = z.strictObject({
  email: z.email('must be an e-mail address').max(254, 'must be at most 254 characters'),
  events: z.array(NotificationEventTypeSchema).max(NOTIFICATION_EVENT_TYPES.length)
    .refine((events) => new Set(events).size === events.length, 'must not name an event twice'),
});
export type NotificationRecipient = z.infer<typeof NotificationRecipientSchema>;

/** Body of `PUT /v1/notification/settings` (extension): the organisation's notification addresses, replacing the stored ones. */
export const NotificationSettingsBodySchema = z.strictObject({
  recipients: z.array(NotificationRecipientSchema).max(20, 'must have at most 20 addresses')
    .refine((list) => new Set(list.map((entry) => entry.email.toLowerCase())).size === list.length, 'must not list an address twice'),
});
export type NotificationSettingsBody = z.infer<typeof NotificationSettingsBodySchema>;

/** `GET /v1/notification/settings` (extension). */
export const NotificationSettingsSchema = z.object({
  recipients: z.array(NotificationRecipientSchema),
  /** Whether the service can send mail (the operator set `SMTP_URL`). */
  mailEnabled: z.boolean(),
  /** When mail is off: how the operator turns it on. */
  mailHint: z.string().optional(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** What a webhook's body holds: the event, when it happened, and the object the API returns for it. */
export const NotificationEventSchema = z.object({
  type: NotificationEventTypeSchema.or(z.literal('webhook.test')),
  /** ISO-8601 (UTC). */
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});
export type NotificationEvent = z.infer<typeof NotificationEventSchema>;

/** Path parameters of `/v1/webhook/{id}…`. */
export const WebhookParamsSchema = z.strictObject({ id: IdSchema });
