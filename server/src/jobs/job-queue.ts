import type { Knex } from 'knex';

/**
 * The payload field (`payload.lane`) that marks a job short: the worker keeps slots of its own for
 * such jobs, so a text is indexed in seconds while long crawls hold every other slot.
 */
export const QUICK_LANE = 'quick';

/** A claimed job, as a handler sees it. */
export interface Job<P = unknown> {
  id: number;
  kind: string;
  payload: P;
  attempts: number;
  maxAttempts: number;
  /** The worker holding the job's lease (see `completeIn`). */
  workerId: string;
  dedupeKey?: string;
}

export interface EnqueueOptions {
  /** Not before this time (Unix ms). Default: now. */
  runAt?: number;
  /** At most one queued job per key: a second enqueue while one waits is a no-op. */
  dedupeKey?: string;
  maxAttempts?: number;
}

interface JobRow {
  id: number; kind: string; payload: unknown; attempts: number; max_attempts: number; dedupe_key: string | null;
}

/** The advisory lock key that serialises claims (any constant unique to this queue). */
const CLAIM_LOCK = 0x6a6f6273;

/**
 * Jobs of the organisation of job `j` (`payload.organisationId`) that hold a live lease: the
 * fairness measure. Jobs without an organisation are not grouped.
 */
const runningOf = (j: string) => `(SELECT count(*) FROM jobs r WHERE r.status = 'running' AND r.locked_until >= ?
  AND r.payload->>'organisationId' = ${j}.payload->>'organisationId')`;
const RUNNING_OF_SAME_ORGANISATION = runningOf('j');

/** Whether a due job of another organisation than `j`'s waits (for the kinds asked). */
const ANOTHER_ORGANISATION_WAITS = `EXISTS (SELECT 1 FROM jobs w WHERE w.kind = ANY(?::text[]) AND w.status = 'queued' AND w.run_at <= ?
  AND w.payload->>'organisationId' IS NOT NULL AND w.payload->>'organisationId' <> j.payload->>'organisationId')`;


/**
 * A job queue in PostgreSQL (PGlite or a server): claims are one `UPDATE … FOR UPDATE SKIP LOCKED`,
 * so several workers and instances never take the same job at once. A claim is a lease: a job
 * whose worker died is taken again once its lease expires.
 */
export class JobQueue {
  constructor(private readonly db: Knex) {}

  /** Adds a job; returns its id, or undefined when deduplicated. */
  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}, db: Knex = this.db): Promise<number | undefined> {
    const now = Date.now();
    const result = await db.raw(
      `INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, created_at, dedupe_key)
       VALUES (?, ?::jsonb, 'queued', ?, 0, ?, ?, ?)
       ON CONFLICT (dedupe_key) WHERE status = 'queued' DO NOTHING RETURNING id`,
      [kind, JSON.stringify(payload), options.runAt ?? now, options.maxAttempts ?? 3, now, options.dedupeKey ?? null],
    );
    return (result.rows as { id: number }[])[0]?.id;
  }

  /**
   * Claims the next due job of the given kinds for `leaseMs`, or returns undefined. Fair across
   * organisations and work-conserving: the job of the organisation with the fewest running jobs
   * goes first (whatever the number of tenants and instances: the count is the database's), and an
   * organisation alone takes every free slot. `maxPerOrganisation` (JOB_MAX_PER_ORGANISATION)
   * caps an organisation only while another organisation's job waits. A tenant that took every
   * slot while alone gives the extra ones back when others come: its long jobs yield
   * (`shouldYield`, job-worker.ts).
   */
  async claim(kinds: readonly string[], workerId: string, leaseMs: number, maxPerOrganisation = Number.MAX_SAFE_INTEGER, quickOnly = false, exceptOrganisation?: string): Promise<Job | undefined> {
    const now = Date.now();
    // Claims take turns (a transaction-scoped advisory lock): a concurrent claim would not yet see
    // this one's running job and could give the same organisation a second slot.
    const result = await this.db.transaction(async (trx): Promise<{ rows: JobRow[] }> => {
      await trx.raw('SELECT pg_advisory_xact_lock(?)', [CLAIM_LOCK]);
      return trx.raw(
        `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ?, locked_until = ?
         WHERE id = (
           SELECT id FROM jobs j
           WHERE kind = ANY(?::text[])
             AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND locked_until < ?))
             AND (j.payload->>'organisationId' IS NULL OR ${RUNNING_OF_SAME_ORGANISATION} < ? OR NOT ${ANOTHER_ORGANISATION_WAITS})
             ${quickOnly ? `AND j.payload->>'lane' = '${QUICK_LANE}'` : ''}
             ${exceptOrganisation === undefined ? '' : 'AND j.payload->>\'organisationId\' IS NOT NULL AND j.payload->>\'organisationId\' <> ?'}
           ORDER BY ${RUNNING_OF_SAME_ORGANISATION}, run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, kind, payload, attempts, max_attempts, dedupe_key`,
        [workerId, now + leaseMs, [...kinds], now, now, now, maxPerOrganisation, [...kinds], now,
          ...(exceptOrganisation === undefined ? [] : [exceptOrganisation]), now],
      );
    });
    const row = result.rows[0];
    return row && {
      id: row.id, kind: row.kind, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts, workerId,
      ...(row.dedupe_key ? { dedupeKey: row.dedupe_key } : {}),
    };
  }

  /**
   * Whether a running job should give its slot to another organisation for a while: a due job of
   * another organisation waits, and that organisation holds at least `imbalance` fewer slots than
   * the job's. Jobs without an organisation never yield.
   */
  async shouldYield(job: Job, kinds: readonly string[], imbalance: number): Promise<boolean> {
    const organisationId = (job.payload as { organisationId?: unknown } | null)?.organisationId;
    if (typeof organisationId !== 'string') return false;
    const now = Date.now();
    const result = await this.db.raw(
      `SELECT 1 AS yes FROM jobs j, jobs w
       WHERE j.id = ? AND w.kind = ANY(?::text[]) AND w.status = 'queued' AND w.run_at <= ?
         AND w.payload->>'organisationId' IS NOT NULL AND w.payload->>'organisationId' <> ?
         AND ${runningOf('w')} + ? <= ${RUNNING_OF_SAME_ORGANISATION}
       LIMIT 1`,
      [job.id, [...kinds], now, organisationId, now, imbalance, now],
    );
    return (result.rows as unknown[]).length > 0;
  }

  /** Removes the queued or running jobs of a key (their subject was deleted); returns how many. */
  async cancel(dedupeKey: string): Promise<number> {
    return this.db('jobs').where({ dedupe_key: dedupeKey }).whereIn('status', ['queued', 'running']).delete();
  }

  /** Extends the lease of a job this worker still holds; false if it lost it. */
  async extendLease(jobId: number, workerId: string, leaseMs: number): Promise<boolean> {
    const updated = await this.db('jobs').where({ id: jobId, locked_by: workerId, status: 'running' })
      .update({ locked_until: Date.now() + leaseMs });
    return updated > 0;
  }

  async complete(jobId: number, workerId: string): Promise<void> {
    await this.db('jobs').where({ id: jobId, locked_by: workerId })
      .update({ status: 'done', finished_at: Date.now(), locked_until: null });
  }

  /**
   * Marks a job done inside the caller's transaction, only if this worker still holds its lease.
   * A handler that commits its effects together with this (and rolls back when it returns false)
   * applies them exactly once, even if a lease expired and another worker took the job meanwhile.
   */
  async completeIn(trx: Knex, job: Job): Promise<boolean> {
    const updated = await trx('jobs').where({ id: job.id, locked_by: job.workerId, status: 'running' })
      .update({ status: 'done', finished_at: Date.now(), locked_until: null });
    return updated > 0;
  }

  /** Whether this worker still holds the job's lease (a paused worker may have lost it). */
  async holdsLease(job: Job, db: Knex = this.db): Promise<boolean> {
    const row = await db('jobs').where({ id: job.id, locked_by: job.workerId, status: 'running' }).first('id');
    return row !== undefined;
  }

  /** Gives a job back unfinished (graceful shutdown): queued again at once, the attempt not counted. */
  async release(job: Job): Promise<void> {
    await this.db('jobs').where({ id: job.id, locked_by: job.workerId, status: 'running' })
      .update({ status: 'queued', attempts: Math.max(0, job.attempts - 1), run_at: Date.now(), locked_by: null, locked_until: null });
  }

  /** Records a failure: back to the queue after `retryInMs`, or `failed` for good. Returns true if final. */
  async fail(job: Job, workerId: string, error: string, retryInMs: number): Promise<boolean> {
    const final = job.attempts >= job.maxAttempts;
    await this.db('jobs').where({ id: job.id, locked_by: workerId }).update(final
      ? { status: 'failed', last_error: error, finished_at: Date.now(), locked_until: null }
      : { status: 'queued', last_error: error, run_at: Date.now() + retryInMs, locked_by: null, locked_until: null });
    return final;
  }

  /**
   * Returns every running job to the queue at once. Only safe when this process is the database's
   * only user (embedded PGlite): then no other worker can hold them.
   */
  async requeueRunning(): Promise<number> {
    return this.db('jobs').where({ status: 'running' }).update({ status: 'queued', locked_by: null, locked_until: null });
  }

  /** Whether a job with this dedupe key is queued or running. */
  async isPending(dedupeKey: string): Promise<boolean> {
    return (await this.db('jobs').where({ dedupe_key: dedupeKey }).whereIn('status', ['queued', 'running']).first('id')) !== undefined;
  }

  /**
   * Deletes finished jobs (done or failed for good) that finished before `before` (Unix ms), in
   * batches so no statement holds many rows locked. Returns how many were deleted.
   */
  async pruneFinished(before: number, batchSize = 5000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const result = await this.db.raw(
        `DELETE FROM jobs WHERE id IN (
           SELECT id FROM jobs WHERE status IN ('done', 'failed') AND finished_at < ? LIMIT ?)`,
        [before, batchSize],
      );
      const count = (result as { rowCount?: number }).rowCount ?? 0;
      deleted += count;
      if (count < batchSize) return deleted;
    }
  }

  /** Jobs not yet finished, for tests and the admin channel. */
  async pendingCount(kinds?: readonly string[]): Promise<number> {
    const query = this.db('jobs').whereIn('status', ['queued', 'running']);
    if (kinds) query.whereIn('kind', [...kinds]);
    const row = await query.count<{ count: number }[]>({ count: '*' }).first();
    return Number(row?.count ?? 0);
  }
}
