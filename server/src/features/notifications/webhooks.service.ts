import type { Webhook, WebhookCreateBody, WebhookDelivery, WebhookUpdateBody, WebhookWithSecret } from '@parley/shared';
import type { WebhookSettings } from '../../config.js';
import { newId } from '../../db/ids.js';
import { badRequest, notFound } from '../../errors/http-error.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { refusedTarget } from '../../net/target-check.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { enqueueWebhookDelivery } from './webhook-delivery.job.js';
import { newWebhookSecret } from './webhook-sender.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord, WebhooksRepository } from './webhooks.repository.js';

/** Endpoints one organisation may have: every event is sent to each, so their number bounds the work one event makes. */
export const MAX_WEBHOOKS_PER_ORGANISATION = 20;

/** After a rotation the old secret keeps signing this long, so receivers can switch without losing messages. */
const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

function toWebhook(record: WebhookEndpointRecord): Webhook {
  return {
    id: record.id, url: record.url, events: record.events, ...(record.description ? { description: record.description } : {}),
    enabled: record.enabled, ...(!record.enabled && record.disabledReason ? { disabledReason: record.disabledReason } : {}), createdAt: record.createdAt,
  };
}

function toDelivery(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: record.id, type: record.type as WebhookDelivery['type'], status: record.status, attempts: record.attempts,
    ...(record.responseStatus !== null ? { responseStatus: record.responseStatus } : {}),
    ...(record.lastError !== null ? { lastError: record.lastError } : {}),
    ...(record.status === 'PENDING' ? { nextAttemptAt: record.nextAttemptAt } : {}),
    createdAt: record.createdAt, ...(record.deliveredAt !== null ? { deliveredAt: record.deliveredAt } : {}),
  };
}

/** `/v1/webhook`: an organisation's webhook endpoints (extension). */
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly jobs: JobQueue,
    private readonly settings: Pick<WebhookSettings, 'allowPrivateNetworks'>,
    private readonly notifyWorker: () => void,
  ) {}

  /** @throws 400 when the URL is refused (a private address, unless the operator allows them). */
  private async assertTarget(url: string): Promise<void> {
    const reason = await refusedTarget(url, this.settings.allowPrivateNetworks);
    if (reason) throw badRequest(`url ${reason}${/public address/.test(reason) ? ' (the operator may allow them with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)' : ''}`);
  }

  private async owned(auth: AuthContext, id: string): Promise<WebhookEndpointRecord> {
    const record = await this.repository.findEndpoint(auth.organisationId, id);
    if (!record) throw notFound(`webhook ${id}`);
    return record;
  }

  /**
   * `POST /v1/webhook`: adds an endpoint; its secret is returned only now.
   * @throws 400 for a refused URL, or when the organisation has 20 endpoints already.
   */
  async create(auth: AuthContext, body: WebhookCreateBody): Promise<WebhookWithSecret> {
    if ((await this.repository.listEndpoints(auth.organisationId)).length >= MAX_WEBHOOKS_PER_ORGANISATION) {
      throw badRequest(`an organisation may have at most ${MAX_WEBHOOKS_PER_ORGANISATION} webhooks: delete one first`);
    }
    await this.assertTarget(body.url);
    const now = Date.now();
    const record: WebhookEndpointRecord = {
      id: newId(now), organisationId: auth.organisationId, url: body.url, description: body.description || null, events: body.events,
      secret: newWebhookSecret(), previousSecret: null, previousSecretUntil: null, enabled: true, disabledReason: null, failingSince: null, createdAt: now,
    };
    await this.repository.insertEndpoint(record);
    return { ...toWebhook(record), secret: record.secret };
  }

  /** `GET /v1/webhook/all`, newest first. */
  async list(auth: AuthContext): Promise<Webhook[]> {
    return (await this.repository.listEndpoints(auth.organisationId)).map(toWebhook);
  }

  /**
   * `PUT /v1/webhook/{id}`. Turning an endpoint on again sends its waiting messages.
   * @throws 404 for another organisation's id; 400 for a refused URL.
   */
  async update(auth: AuthContext, id: string, body: WebhookUpdateBody): Promise<Webhook> {
    const record = await this.owned(auth, id);
    if (body.url !== undefined) await this.assertTarget(body.url);
    const reenabled = body.enabled === true && !record.enabled;
    await this.repository.updateEndpoint(id, {
      ...(body.url !== undefined ? { url: body.url } : {}), ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.description !== undefined ? { description: body.description || null } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled, disabledReason: null } : {}),
      ...(reenabled ? { failingSince: null } : {}),
    });
    if (reenabled) await this.kick(record);
    return toWebhook((await this.repository.findEndpoint(auth.organisationId, id))!);
  }

  /** `DELETE /v1/webhook/{id}`: the endpoint and its deliveries. @throws 404 */
  async remove(auth: AuthContext, id: string): Promise<Webhook> {
    const record = await this.owned(auth, id);
    await this.repository.deleteEndpoint(id);
    return toWebhook(record);
  }

  /** `POST /v1/webhook/{id}/test`: queues a `webhook.test` message behind the endpoint's waiting ones. @throws 404 */
  async test(auth: AuthContext, id: string): Promise<WebhookDelivery> {
    const record = await this.owned(auth, id);
    const now = Date.now();
    const messageId = `msg_${newId(now)}`;
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date(now).toISOString(), data: { webhookId: record.id, url: record.url } });
    await this.repository.insertDeliveries([{ id: messageId, endpointId: record.id, organisationId: record.organisationId, type: 'webhook.test', body, createdAt: now }]);
    await this.kick(record);
    return toDelivery((await this.repository.findDelivery(messageId))!);
  }

  /** `GET /v1/webhook/{id}/deliveries`: the latest 100, newest first. @throws 404 */
  async deliveries(auth: AuthContext, id: string): Promise<WebhookDelivery[]> {
    const record = await this.owned(auth, id);
    return (await this.repository.listDeliveries(record.id, 100)).map(toDelivery);
  }

  /** `POST /v1/webhook/{id}/secret`: a new secret; the old one keeps signing for a day. @throws 404 */
  async rotateSecret(auth: AuthContext, id: string): Promise<WebhookWithSecret> {
    const record = await this.owned(auth, id);
    const secret = newWebhookSecret();
    await this.repository.updateEndpoint(id, { secret, previousSecret: record.secret, previousSecretUntil: Date.now() + PREVIOUS_SECRET_MS });
    return { ...toWebhook(record), secret };
  }

  private async kick(record: WebhookEndpointRecord): Promise<void> {
    await enqueueWebhookDelivery(this.jobs, { organisationId: record.organisationId, endpointId: record.id });
    this.notifyWorker();
  }
}
