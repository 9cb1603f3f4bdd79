import {
  NotificationSettingsBodySchema, NotificationSettingsSchema, WebhookCreateBodySchema, WebhookDeliveryListSchema, WebhookListSchema,
  WebhookParamsSchema, WebhookSchema, WebhookUpdateBodySchema, WebhookWithSecretSchema,
} from '../notifications/notifications.schema.js';
import { MANAGERS, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Notifications';

const SIGNING = 'Deliveries follow the Standard Webhooks specification: a `POST` with `webhook-id` (the message id, the same on every '
  + 'retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the '
  + 'secret; during the day after a rotation the old secret\'s signature is sent too, space-separated). The body is '
  + '`{type, timestamp, data}`: `lead.created` carries the lead with `chatbotId`; `feedback.created` the verdict with `chatbotId`; '
  + '`resource.processed` the resource (`aiProcessingStatus` DONE, FAILED or FAILED_NO_TEXT_FOUND with its `failureReason`); '
  + '`conversation.handoff_requested` `{chatbotId, conversationId?, message}`; `conversation.waiting_message` the same, for a '
  + 'visitor who writes while waiting for a person. A 2xx is delivered; timeouts (10 s), network errors, 408, 429 and 5xx are retried '
  + 'with exponential backoff and jitter for a day; any other status is final. An endpoint failing for a day is disabled and the '
  + 'organisation\'s notification addresses are told. Messages reach one endpoint in order.';

const URL_RULE = 'The URL must be http(s); one whose host is or resolves to a private, loopback or link-local address is a 400 '
  + '(unless the operator set `WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`), and is checked again after DNS at every delivery.';

export const webhookContract = {
  create: defineRoute({
    operationId: 'createWebhook', method: 'post', path: '/v1/webhook', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Add a webhook endpoint (extension)',
    description: `Returns the endpoint with its signing secret, shown only now. An organisation has at most 20 endpoints (400 beyond). ${URL_RULE} ${SIGNING}`,
    body: WebhookCreateBodySchema,
    responses: { 201: { description: 'The endpoint and its secret.', schema: WebhookWithSecretSchema }, ...errorResponses(400, 401, 500) },
  }),
  list: defineRoute({
    operationId: 'listWebhooks', method: 'get', path: '/v1/webhook/all', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'List the organisation\'s webhook endpoints, newest first (extension)',
    responses: { 200: { description: 'The endpoints (without secrets).', schema: WebhookListSchema }, ...errorResponses(401, 500) },
  }),
  update: defineRoute({
    operationId: 'updateWebhook', method: 'put', path: '/v1/webhook/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Change a webhook endpoint (extension)',
    description: `The fields given replace the stored ones. \`enabled: true\` turns a disabled endpoint on again; its waiting messages are sent. ${URL_RULE}`,
    params: WebhookParamsSchema, body: WebhookUpdateBodySchema,
    responses: { 200: { description: 'The endpoint.', schema: WebhookSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  remove: defineRoute({
    operationId: 'deleteWebhook', method: 'delete', path: '/v1/webhook/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Remove a webhook endpoint and its deliveries (extension)',
    params: WebhookParamsSchema,
    responses: { 200: { description: 'The removed endpoint.', schema: WebhookSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  test: defineRoute({
    operationId: 'testWebhook', method: 'post', path: '/v1/webhook/{id}/test', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Send a `webhook.test` message to an endpoint (extension)',
    description: 'Queued like any event (after the endpoint\'s waiting messages); follow it in the deliveries. At most 10 tests per minute per key (429).',
    params: WebhookParamsSchema,
    responses: { 202: { description: 'The queued delivery.', schema: WebhookDeliveryListSchema.element }, ...errorResponses(400, 401, 404, 429, 500) },
  }),
  deliveries: defineRoute({
    operationId: 'listWebhookDeliveries', method: 'get', path: '/v1/webhook/{id}/deliveries', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'The latest 100 deliveries to an endpoint, newest first (extension)',
    params: WebhookParamsSchema,
    responses: { 200: { description: 'The deliveries.', schema: WebhookDeliveryListSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  rotateSecret: defineRoute({
    operationId: 'rotateWebhookSecret', method: 'post', path: '/v1/webhook/{id}/secret', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Replace an endpoint\'s signing secret (extension)',
    description: 'Returns the new secret, shown only now. For a day, messages carry signatures with both the new and the old secret.',
    params: WebhookParamsSchema,
    responses: { 200: { description: 'The endpoint and its new secret.', schema: WebhookWithSecretSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};

export const notificationSettingsContract = {
  get: defineRoute({
    operationId: 'getNotificationSettings', method: 'get', path: '/v1/notification/settings', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'The organisation\'s notification addresses and whether mail is on (extension)',
    responses: { 200: { description: 'The settings.', schema: NotificationSettingsSchema }, ...errorResponses(401, 500) },
  }),
  update: defineRoute({
    operationId: 'updateNotificationSettings', method: 'put', path: '/v1/notification/settings', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Set the organisation\'s notification addresses and which events mail them (extension)',
    description: 'Replaces the list. A mail has a plain-text and an HTML part and a link into the console; it holds no secret. A '
      + 'conversation gets at most one mail per 5 minutes (a visitor writing ten messages while waiting is one mail). An address '
      + 'with no events still hears when a webhook endpoint was disabled.',
    body: NotificationSettingsBodySchema,
    responses: { 200: { description: 'The settings.', schema: NotificationSettingsSchema }, ...errorResponses(400, 401, 500) },
  }),
};
