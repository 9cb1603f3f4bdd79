import type { Knex } from 'knex';
import type { NotificationEventType, WebhookDeliveryStatus } from '@parley/shared';

export interface WebhookEndpointRecord {
  id: string;
  organisationId: string;
  url: string;
  description: string | null;
  events: NotificationEventType[];
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
}

export interface WebhookDeliveryRecord {
  seq: number;
  id: string;
  endpointId: string;
  organisationId: string;
  type: string;
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number;
  firstAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

interface EndpointRow {
  id: string; organisation_id: string; url: string; description: string | null; events: NotificationEventType[]; secret: string;
  previous_secret: string | null; previous_secret_until: string | number | null; enabled: boolean; disabled_reason: string | null;
  failing_since: string | number | null; created_at: string | number;
}

interface DeliveryRow {
  seq: string | number; id: string; endpoint_id: string; organisation_id: string; type: string; body: string; status: WebhookDeliveryStatus;
  attempts: number; response_status: number | null; last_error: string | null; next_attempt_at: string | number;
  first_attempt_at: string | number | null; created_at: string | number; delivered_at: string | number | null;
}

const optionalNumber = (value: string | number | null) => (value === null ? null : Number(value));

function toEndpoint(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id, organisationId: row.organisation_id, url: row.url, description: row.description, events: row.events, secret: row.secret,
    previousSecret: row.previous_secret, previousSecretUntil: optionalNumber(row.previous_secret_until), enabled: row.enabled,
    disabledReason: row.disabled_reason, failingSince: optionalNumber(row.failing_since), createdAt: Number(row.created_at),
  };
}

function toDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    seq: Number(row.seq), id: row.id, endpointId: row.endpoint_id, organisationId: row.organisation_id, type: row.type, body: row.body,
    status: row.status, attempts: row.attempts, responseStatus: row.response_status, lastError: row.last_error,
    nextAttemptAt: Number(row.next_attempt_at), firstAttemptAt: optionalNumber(row.first_attempt_at), createdAt: Number(row.created_at),
    deliveredAt: optionalNumber(row.delivered_at),
  };
}

/** A new message for one endpoint. */
export interface NewDelivery { id: string; endpointId: string; organisationId: string; type: string; body: string; createdAt: number }

/** The outcome of one attempt. */
export interface AttemptUpdate {
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number;
  firstAttemptAt: number;
  deliveredAt: number | null;
}

/** Webhook endpoints and their deliveries. */
export class WebhooksRepository {
  constructor(private readonly db: Knex) {}

  async insertEndpoint(record: WebhookEndpointRecord): Promise<void> {
    await this.db('webhook_endpoints').insert({
      id: record.id, organisation_id: record.organisationId, url: record.url, description: record.description,
      events: JSON.stringify(record.events), secret: record.secret, enabled: record.enabled, created_at: record.createdAt,
    });
  }

  async listEndpoints(organisationId: string): Promise<WebhookEndpointRecord[]> {
    const rows = await this.db('webhook_endpoints').where({ organisation_id: organisationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    return (rows as EndpointRow[]).map(toEndpoint);
  }

  async findEndpoint(organisationId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.db('webhook_endpoints').where({ organisation_id: organisationId, id }).first() as EndpointRow | undefined;
    return row && toEndpoint(row);
  }

  async findEndpointById(id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.db('webhook_endpoints').where({ id }).first() as EndpointRow | undefined;
    return row && toEndpoint(row);
  }

  async updateEndpoint(id: string, fields: Partial<{
    url: string; description: string | null; events: NotificationEventType[]; secret: string; previousSecret: string | null;
    previousSecretUntil: number | null; enabled: boolean; disabledReason: string | null; failingSince: number | null;
  }>): Promise<void> {
    const row: Record<string, unknown> = {};
    if (fields.url !== undefined) row.url = fields.url;
    if (fields.description !== undefined) row.description = fields.description;
    if (fields.events !== undefined) row.events = JSON.stringify(fields.events);
    if (fields.secret !== undefined) row.secret = fields.secret;
    if (fields.previousSecret !== undefined) row.previous_secret = fields.previousSecret;
    if (fields.previousSecretUntil !== undefined) row.previous_secret_until = fields.previousSecretUntil;
    if (fields.enabled !== undefined) row.enabled = fields.enabled;
    if (fields.disabledReason !== undefined) row.disabled_reason = fields.disabledReason;
    if (fields.failingSince !== undefined) row.failing_since = fields.failingSince;
    if (Object.keys(row).length > 0) await this.db('webhook_endpoints').where({ id }).update(row);
  }

  async deleteEndpoint(id: string): Promise<void> {
    await this.db('webhook_endpoints').where({ id }).delete();
  }

  /**
   * Queues an event for every enabled endpoint of the organisation that subscribes to its type: a
   * message per endpoint and, per endpoint, its sending job (as `JobQueue.enqueue` writes it,
   * deduplicated by `webhook:<endpoint id>`), all in one statement, so publishing costs the request
   * that caused the event one round trip. Returns how many endpoints get it.
   */
  async queueEvent(event: { organisationId: string; type: NotificationEventType; body: string; now: number; jobKind: string; maxAttempts: number }, db: Knex = this.db): Promise<number> {
    const { organisationId, type, body, now } = event;
    const result = await db.raw(
      `WITH endpoints AS (
         SELECT id FROM webhook_endpoints WHERE organisation_id = ? AND enabled AND events @> ?::jsonb
       ), messages AS (
         INSERT INTO webhook_deliveries (id, endpoint_id, organisation_id, type, body, status, attempts, next_attempt_at, created_at)
         SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), id, ?, ?, ?, 'PENDING', 0, ?, ? FROM endpoints
       ), queued AS (
         INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, created_at, dedupe_key)
         SELECT ?, jsonb_build_object('organisationId', ?::text, 'endpointId', id), 'queued', ?, 0, ?, ?, 'webhook:' || id FROM endpoints
         ON CONFLICT (dedupe_key) WHERE status = 'queued' DO NOTHING
       )
       SELECT count(*) AS endpoints FROM endpoints`,
      [organisationId, JSON.stringify([type]), organisationId, type, body, now, now, event.jobKind, organisationId, now, event.maxAttempts, now],
    );
    return Number((result.rows as { endpoints: string | number }[])[0]?.endpoints ?? 0);
  }

  async insertDeliveries(deliveries: readonly NewDelivery[], db: Knex = this.db): Promise<void> {
    if (deliveries.length === 0) return;
    await db('webhook_deliveries').insert(deliveries.map((delivery) => ({
      id: delivery.id, endpoint_id: delivery.endpointId, organisation_id: delivery.organisationId, type: delivery.type, body: delivery.body,
      status: 'PENDING', attempts: 0, next_attempt_at: delivery.createdAt, created_at: delivery.createdAt,
    })));
  }

  /** The endpoint's oldest message still to send: messages reach an endpoint in order. */
  async nextPending(endpointId: string): Promise<WebhookDeliveryRecord | undefined> {
    const row = await this.db('webhook_deliveries').where({ endpoint_id: endpointId, status: 'PENDING' }).orderBy('seq').first() as DeliveryRow | undefined;
    return row && toDelivery(row);
  }

  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db('webhook_deliveries').where({ endpoint_id: endpointId }).orderBy('seq', 'desc').limit(limit);
    return (rows as DeliveryRow[]).map(toDelivery);
  }

  async findDelivery(id: string): Promise<WebhookDeliveryRecord | undefined> {
    const row = await this.db('webhook_deliveries').where({ id }).first() as DeliveryRow | undefined;
    return row && toDelivery(row);
  }

  /** Deletes an endpoint's finished messages beyond its newest `keep` (the history is bounded; waiting ones stay). */
  async pruneFinished(endpointId: string, keep: number): Promise<void> {
    await this.db.raw(
      `DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND status <> 'PENDING' AND seq < (
         SELECT seq FROM webhook_deliveries WHERE endpoint_id = ? AND status <> 'PENDING' ORDER BY seq DESC OFFSET ? LIMIT 1)`,
      [endpointId, endpointId, keep - 1],
    );
  }

  /** Records an attempt; counts it. */
  async recordAttempt(id: string, update: AttemptUpdate): Promise<void> {
    await this.db('webhook_deliveries').where({ id }).update({
      status: update.status, response_status: update.responseStatus, last_error: update.lastError, next_attempt_at: update.nextAttemptAt,
      first_attempt_at: update.firstAttemptAt, delivered_at: update.deliveredAt, attempts: this.db.raw('attempts + 1'),
    });
  }

  /**
   * Takes the endpoint's sender lease (one sender per endpoint keeps its messages in order), or
   * returns false while another sender holds it.
   */
  async takeSenderLease(endpointId: string, sender: string, leaseMs: number): Promise<boolean> {
    const now = Date.now();
    const updated = await this.db('webhook_endpoints').where({ id: endpointId })
      .where((q) => q.whereNull('sending_until').orWhere('sending_until', '<', now).orWhere('sending_by', sender))
      .update({ sending_by: sender, sending_until: now + leaseMs });
    return updated > 0;
  }

  async releaseSenderLease(endpointId: string, sender: string): Promise<void> {
    await this.db('webhook_endpoints').where({ id: endpointId, sending_by: sender }).update({ sending_by: null, sending_until: null });
  }
}
