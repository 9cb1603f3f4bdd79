import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ResourceType } from '@parley/shared';
import { QUICK_LANE, type JobQueue } from '../../../jobs/job-queue.js';
import type { JobWorker } from '../../../jobs/job-worker.js';
import type { ResourcesRepository } from '../resources.repository.js';
import { nextSyncAt, runIngestion, type IngestionContext, type IngestionPayload } from './run-ingestion.js';

/** The job kind that reads and indexes one resource (first time and every re-sync). */
export const INGEST_RESOURCE_JOB = 'resource-ingest';

/** At most one queued ingestion per resource: a second request while one waits is a no-op. */
export const ingestionDedupeKey = (resourceId: string) => `resource-ingest:${resourceId}`;

/**
 * Resource types read from what the service already holds (no download, no parsing of files, no
 * OCR or transcription): their ingestion takes seconds at most, so it may run in the job worker's
 * quick lane, which long crawls and scanned PDFs can never fill.
 */
const QUICK_TYPES: ReadonlySet<ResourceType> = new Set(['TEXT', 'QA']);

/** Queues the ingestion of a resource (deduplicated), in the quick lane when its type reads quickly; returns the job id, or undefined when one waits already. */
export function enqueueIngestion(jobs: JobQueue, resource: { id: string; organisationId: string; type?: ResourceType }, db?: Knex): Promise<number | undefined> {
  const payload: IngestionPayload = { resourceId: resource.id, organisationId: resource.organisationId, ...(resource.type && QUICK_TYPES.has(resource.type) ? { lane: QUICK_LANE } : {}) };
  return jobs.enqueue(INGEST_RESOURCE_JOB, payload, { dedupeKey: ingestionDedupeKey(resource.id) }, db);
}

/** Registers the ingestion handler: a job that fails for the last time ends its resource FAILED. */
export function registerIngestion(worker: JobWorker, ctx: IngestionContext): void {
  worker.register<IngestionPayload>(INGEST_RESOURCE_JOB, {
    run: (_payload, job, signal) => runIngestion(ctx, job, signal),
    async onGiveUp(payload, error) {
      const reason = error instanceof Error ? error.message : String(error);
      ctx.logger.error({ resourceId: payload.resourceId, reason }, 'ingestion failed for good');
      const resource = await ctx.repository.findForIngestion(payload.resourceId);
      if (!resource) return;
      // A website keeps its schedule: the next sync may succeed where this one failed.
      await ctx.repository.update(resource.id, { aiProcessingStatus: 'FAILED', failureReason: reason, nextSyncAt: nextSyncAt(resource, Date.now()) });
      const stored = ctx.onProcessed && await ctx.repository.find(resource.organisationId, resource.id);
      if (stored) await ctx.onProcessed!(stored, ctx.db);
    },
  });
}

/**
 * Re-syncs WEB resources by their `syncFrequency`: every tick it takes the due ones (atomically,
 * so several instances never take the same one) and queues their ingestion. Ingestion sets the
 * next due time when it finishes, so a slow crawl is never queued twice.
 */
export class SyncScheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly db: Knex, private readonly repository: ResourcesRepository, private readonly jobs: JobQueue,
    private readonly notify: () => void, private readonly logger: Logger,
  ) {}

  /** Queues the ingestion of every WEB resource whose next sync is due; returns how many. */
  async runOnce(now = Date.now()): Promise<number> {
    const due = await this.db.transaction(async (trx) => {
      const claimed = await this.repository.claimDueSyncs(trx, now, 100);
      for (const resource of claimed) {
        await enqueueIngestion(this.jobs, resource, trx);
      }
      return claimed.length;
    });
    if (due > 0) {
      this.logger.info({ due }, 're-sync queued');
      this.notify();
    }
    return due;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .catch((err) => { this.logger.error({ err }, 'sync scheduling failed'); return 0; })
        .finally(() => { this.running = undefined; });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
