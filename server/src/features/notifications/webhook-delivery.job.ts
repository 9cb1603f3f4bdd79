import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { WebhookSettings } from '../../config.js';
import type { Job, JobQueue } from '../../jobs/job-queue.js';
import type { JobHandler } from '../../jobs/job-worker.js';
import { retryDelay, sendWebhook, type AttemptOutcome } from './webhook-sender.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord, WebhooksRepository } from './webhooks.repository.js';

/** The job kind that sends an endpoint's waiting messages, oldest first. */
export const WEBHOOK_DELIVERY_JOB = 'webhook-deliver';

export interface WebhookDeliveryPayload { organisationId: string; endpointId: string }

/** Messages one job sends before it hands over to a fresh job (other endpoints get their turn). */
const MESSAGES_PER_JOB = 50;
/** Finished messages kept per endpoint (its delivery history). */
const KEPT_PER_ENDPOINT = 1000;
/** How soon a job that found another sender busy with its endpoint looks again. */
const BUSY_RETRY_MS = 1000;

const dedupeKeyOf = (endpointId: string) => `webhook:${endpointId}`;
/** Tries of one sending job (its failures are the database's; an endpoint's failures are retried by new jobs). */
export const WEBHOOK_JOB_MAX_ATTEMPTS = 10;

/** Queues the sending of an endpoint's messages: at most one queued job per endpoint. */
export function enqueueWebhookDelivery(jobs: JobQueue, payload: WebhookDeliveryPayload, options: { db?: Knex; runAt?: number } = {}): Promise<number | undefined> {
  return jobs.enqueue(WEBHOOK_DELIVERY_JOB, payload, { dedupeKey: dedupeKeyOf(payload.endpointId), maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS, ...(options.runAt ? { runAt: options.runAt } : {}) }, options.db);
}


export interface WebhookDeliveryDeps {
  repository: WebhooksRepository;
  jobs: JobQueue;
  settings: WebhookSettings;
  logger: Logger;
  /** Tells the organisation that its endpoint was disabled. */
  onDisabled(endpoint: WebhookEndpointRecord, reason: string): Promise<void>;
}

/** The secrets that sign now: the current one, and the previous one for a day after a rotation. */
function liveSecrets(endpoint: WebhookEndpointRecord, now: number): string[] {
  return endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > now ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
}

const leaseOf = (settings: WebhookSettings) => settings.timeoutMs + 30_000;
const again = (jobs: JobQueue, payload: WebhookDeliveryPayload, runAt: number) => enqueueWebhookDelivery(jobs, payload, { runAt });

/** Records a failed attempt: retried later, or given up; an endpoint failing for `retryForMs` is disabled. */
async function recordFailure(
  deps: WebhookDeliveryDeps, payload: WebhookDeliveryPayload, endpoint: WebhookEndpointRecord, delivery: WebhookDeliveryRecord,
  outcome: Exclude<AttemptOutcome, { kind: 'delivered' }>,
): Promise<'sent' | 'done'> {
  const { repository, settings } = deps;
  const now = Date.now();
  const firstAttemptAt = delivery.firstAttemptAt ?? now;
  const givenUp = outcome.kind === 'final' || now - firstAttemptAt >= settings.retryForMs;
  const nextAttemptAt = givenUp ? now : now + retryDelay(settings, delivery.attempts + 1);
  await repository.recordAttempt(delivery.id, {
    status: givenUp ? 'FAILED' : 'PENDING', responseStatus: outcome.status ?? null, lastError: outcome.error, nextAttemptAt, firstAttemptAt, deliveredAt: null,
  });
  const log = deps.logger.child({ endpointId: endpoint.id, messageId: delivery.id, attempt: delivery.attempts + 1 });
  log[givenUp ? 'warn' : 'info']({ error: outcome.error }, givenUp ? 'webhook message given up' : 'webhook attempt failed; will retry');
  const failingSince = endpoint.failingSince ?? now;
  if (endpoint.failingSince === null) await repository.updateEndpoint(endpoint.id, { failingSince });
  if (now - failingSince >= settings.retryForMs) {
    const reason = `it failed for ${Math.round((now - failingSince) / 3_600_000)} hours; last: ${outcome.error}`;
    await repository.updateEndpoint(endpoint.id, { enabled: false, disabledReason: reason });
    log.warn({ reason }, 'webhook endpoint disabled');
    await deps.onDisabled(endpoint, outcome.error);
    return 'done';
  }
  if (givenUp) return 'sent';
  await again(deps.jobs, payload, nextAttemptAt);
  return 'done';
}

/** Sends the endpoint's oldest waiting message if it is due; 'done' when this job has nothing more to do now. */
/** This job's hold on its endpoint: `hold()` renews the lease once half of it has passed (false when another sender took it). */
interface Sender { id: string; hold(): Promise<boolean> }

async function sendNext(deps: WebhookDeliveryDeps, payload: WebhookDeliveryPayload, sender: Sender, signal: AbortSignal): Promise<'sent' | 'done'> {
  const { repository, settings } = deps;
  const endpoint = await repository.findEndpointById(payload.endpointId);
  if (!endpoint?.enabled) return 'done';
  const delivery = await repository.nextPending(endpoint.id);
  if (!delivery) return 'done';
  if (delivery.nextAttemptAt > Date.now()) {
    await again(deps.jobs, payload, delivery.nextAttemptAt);
    return 'done';
  }
  if (!await sender.hold()) return 'done';
  const outcome = await sendWebhook(settings, { url: endpoint.url, secrets: liveSecrets(endpoint, Date.now()) }, delivery, signal);
  // Shutting down: the attempt is not recorded; the job is released and the message sent again (at least once).
  signal.throwIfAborted();
  if (outcome.kind !== 'delivered') return recordFailure(deps, payload, endpoint, delivery, outcome);
  const now = Date.now();
  await repository.recordAttempt(delivery.id, {
    status: 'DELIVERED', responseStatus: outcome.status, lastError: null, nextAttemptAt: now, firstAttemptAt: delivery.firstAttemptAt ?? now, deliveredAt: now,
  });
  if (endpoint.failingSince !== null) await repository.updateEndpoint(endpoint.id, { failingSince: null });
  return 'sent';
}

/**
 * Sends one endpoint's waiting messages in order (at least once: a message is marked only after
 * its attempt). Only one sender works on an endpoint at a time (a lease on the endpoint row), and
 * the head message blocks the ones behind it until it is delivered or given up. A failed attempt
 * is retried after an exponential, jittered delay by a job queued for that time, so nothing waits
 * in memory and a restart loses nothing. An endpoint failing for `retryForMs` is disabled.
 */
export function webhookDeliveryJob(deps: WebhookDeliveryDeps): JobHandler<WebhookDeliveryPayload> {
  return {
    async run(payload: WebhookDeliveryPayload, job: Job<WebhookDeliveryPayload>, signal: AbortSignal) {
      const leaseMs = leaseOf(deps.settings);
      let heldAt = Date.now();
      const sender: Sender = {
        id: `${job.workerId}:${job.id}`,
        async hold() {
          if (Date.now() - heldAt < leaseMs / 2) return true;
          heldAt = Date.now();
          return deps.repository.takeSenderLease(payload.endpointId, this.id, leaseMs);
        },
      };
      if (!await deps.repository.takeSenderLease(payload.endpointId, sender.id, leaseMs)) {
        // Another sender holds this endpoint; it may have read the queue before this job's message arrived.
        await again(deps.jobs, payload, Date.now() + BUSY_RETRY_MS);
        return;
      }
      let attempted = 0;
      try {
        for (; attempted < MESSAGES_PER_JOB; attempted++) {
          if (await sendNext(deps, payload, sender, signal) === 'done') return;
        }
        await again(deps.jobs, payload, Date.now());
      } finally {
        if (attempted > 0) await deps.repository.pruneFinished(payload.endpointId, KEPT_PER_ENDPOINT);
        await deps.repository.releaseSenderLease(payload.endpointId, sender.id);
      }
    },
  };
}
