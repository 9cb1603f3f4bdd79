import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Job, JobQueue } from './job-queue.js';
import { runWithTurn } from './job-yield.js';

/** What a job kind does. `run` may be retried, so it must be idempotent. */
export interface JobHandler<P = unknown> {
  run(payload: P, job: Job<P>, signal: AbortSignal): Promise<void>;
  /** Called once when the job failed for the last time (e.g. to mark a resource FAILED). */
  onGiveUp?(payload: P, error: unknown): Promise<void>;
}

export interface JobWorkerOptions {
  concurrency: number;
  /** How often an idle worker looks for due jobs. */
  pollIntervalMs?: number;
  leaseMs?: number;
  /** Finished jobs older than this are deleted (checked at start and hourly); absent: kept. */
  retentionMs?: number;
  /** Slots one organisation may hold while another organisation's job waits; default: no cap (see `JobQueue.claim`). */
  maxPerOrganisation?: number | undefined;
  /**
   * Slots beside `concurrency` that take only quick jobs (`payload.lane`, `QUICK_LANE`): texts,
   * saved answers and conversation analyses are done in seconds even while long crawls or
   * scanned PDFs of other organisations hold every other slot. Default 1.
   */
  quickSlots?: number;
}

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** How often a running job checks that it was not cancelled elsewhere, and whether it should yield. */
const CANCEL_CHECK_MS = 2_000;
/**
 * A job that ran this long since it started (or went on after yielding) yields to any waiting
 * organisation holding fewer slots than its own, not only to one holding two fewer: the time slice
 * that lets a third tenant's job start within seconds while two tenants run long jobs on two slots.
 */
const TIME_SLICE_MS = 5_000;

/**
 * Runs queued jobs with bounded concurrency. Each slot claims a job, keeps its lease alive while
 * running, and records the outcome. `stop()` waits for running jobs to finish or abort.
 *
 * How the slots are shared between organisations (work-conserving, for any number of tenants and
 * instances, all from the database's counts): a free slot takes the job of the organisation
 * running the fewest jobs (`JobQueue.claim`), so a tenant alone uses every slot. When another
 * organisation's job then waits while this job's organisation holds at least two slots more
 * (it took them while alone), or one slot more once this job ran a time slice
 * (`JobQueue.shouldYield`, checked every few seconds), the job is asked to yield: at its next
 * `yieldPoint()` (between two crawled pages, OCR pages, batches of vectors) it pauses, and its slot
 * runs one claimed job of another organisation (the one running the fewest) to its end; then the
 * paused job goes on where it stopped, its lease kept alive all along. Its progress stays in
 * memory, so nothing is lost or fetched twice, and a paused job still counts as its
 * organisation's, so two tenants never swap a slot back and forth. Quick slots never yield
 * (their jobs take seconds).
 */
export class JobWorker {
  readonly id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly abort = new AbortController();
  private readonly slots: Promise<void>[] = [];
  private wake: (() => void)[] = [];
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private pruneTimer?: NodeJS.Timeout;
  /** This worker's running jobs, each with its own abort (cancellation or a lost lease). */
  private readonly running = new Map<number, { job: Job; abort: AbortController }>();

  constructor(private readonly queue: JobQueue, private readonly logger: Logger, private readonly options: JobWorkerOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  register<P>(kind: string, handler: JobHandler<P>): void {
    this.handlers.set(kind, handler);
  }

  start(): void {
    for (let slot = 0; slot < this.options.concurrency; slot++) this.slots.push(this.loop(false));
    for (let slot = 0; slot < (this.options.quickSlots ?? 1); slot++) this.slots.push(this.loop(true));
    const { retentionMs } = this.options;
    if (retentionMs !== undefined) {
      // Every instance prunes; the deletes are idempotent, so several at once do no harm.
      const prune = () => {
        this.queue.pruneFinished(Date.now() - retentionMs)
          .then((deleted) => { if (deleted > 0) this.logger.info({ deleted }, 'finished jobs pruned'); })
          .catch((err) => this.logger.warn({ err }, 'pruning finished jobs failed'));
      };
      prune();
      this.pruneTimer = setInterval(prune, PRUNE_INTERVAL_MS);
      this.pruneTimer.unref();
    }
  }

  /** Makes idle slots look for work now (call after enqueueing in this process). */
  notify(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Stops this process's running jobs of a key at once (their subject was deleted). Jobs on other
   * instances stop at their next lease extension, which fails once `JobQueue.cancel` removed them.
   */
  cancel(dedupeKey: string): void {
    for (const { job, abort } of this.running.values()) if (job.dedupeKey === dedupeKey) abort.abort(new Error('the job was cancelled'));
  }

  async stop(): Promise<void> {
    clearInterval(this.pruneTimer);
    this.abort.abort();
    this.notify();
    await Promise.all(this.slots);
  }

  private async loop(quickOnly: boolean): Promise<void> {
    const kinds = [...this.handlers.keys()];
    // A quick slot serves every organisation in turn (the claim's order), whatever long jobs it runs elsewhere.
    while (!this.abort.signal.aborted) {
      const job = await this.claim(kinds, quickOnly);
      if (job) await this.execute(job, !quickOnly);
      else await this.idle();
    }
  }

  private async claim(kinds: readonly string[], quickOnly: boolean, exceptOrganisation?: string): Promise<Job | undefined> {
    const maxPerOrganisation = quickOnly ? undefined : this.options.maxPerOrganisation;
    try {
      return await this.queue.claim(kinds, this.id, this.leaseMs, maxPerOrganisation, quickOnly, exceptOrganisation);
    } catch (err) {
      if (!this.abort.signal.aborted) this.logger.error({ err }, 'job claim failed');
      return undefined;
    }
  }

  /**
   * A running job's turn: once the worker asked it to yield, its next `yieldPoint()` runs one
   * other claimed job in its slot, then lets it go on.
   */
  private turn(job: Job, signal: AbortSignal) {
    const state = { yieldAsked: false, yields: 0, sliceStarted: Date.now() };
    const organisationId = (job.payload as { organisationId?: unknown } | null)?.organisationId;
    const yieldPoint = async () => {
      if (!state.yieldAsked || signal.aborted || typeof organisationId !== 'string') return;
      state.yieldAsked = false;
      const other = await this.claim([...this.handlers.keys()], false, organisationId);
      if (!other) return;
      state.yields++;
      this.logger.info({ jobId: job.id, kind: job.kind, for: other.id }, 'job yields its slot to another organisation');
      await this.execute(other, true);
      state.sliceStarted = Date.now();
    };
    return { state, yieldPoint, yieldAsked: () => state.yieldAsked };
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollIntervalMs);
      function done() { clearTimeout(timer); resolve(); }
      this.wake.push(done);
    });
  }

  /**
   * A job claimed more times than it may be tried never recorded an outcome: every attempt was
   * interrupted (the process died or was killed while running it). It ends for good instead of
   * being requeued forever (a poison job).
   */
  private async giveUpInterrupted(job: Job, handler: JobHandler): Promise<void> {
    const reason = `it was interrupted ${job.maxAttempts} times (the process stopped while running it)`;
    await this.queue.fail({ ...job, attempts: job.maxAttempts }, this.id, reason, 0);
    this.logger.error({ jobId: job.id, kind: job.kind, attempts: job.attempts }, `job given up: ${reason}`);
    await handler.onGiveUp?.(job.payload, new Error(`processing stopped: ${reason}`));
  }

  private async execute(job: Job, mayYield: boolean): Promise<void> {
    const handler = this.handlers.get(job.kind);
    if (!handler) return;
    if (job.attempts > job.maxAttempts) {
      await this.giveUpInterrupted(job, handler).catch((err) => this.logger.error({ err, jobId: job.id }, 'could not give up an interrupted job'));
      return;
    }
    const abort = new AbortController();
    this.running.set(job.id, { job, abort });
    const heartbeat = setInterval(() => {
      this.queue.extendLease(job.id, this.id, this.leaseMs)
        .then((held) => { if (!held) abort.abort(new Error('the job lease was lost or the job was cancelled')); })
        .catch((err) => this.logger.warn({ err, jobId: job.id }, 'lease extension failed'));
    }, Math.max(1000, this.leaseMs / 3));
    // A job deleted on another instance (its resource was deleted there) stops within seconds,
    // not at the next lease extension: a cheap read of whether it is still ours.
    const signal = AbortSignal.any([this.abort.signal, abort.signal]);
    const turn = this.turn(job, signal);
    const cancelCheck = setInterval(() => {
      this.queue.holdsLease(job)
        .then((held) => { if (!held) abort.abort(new Error('the job was cancelled or its lease lost')); })
        .catch(() => {});
      if (mayYield && !turn.state.yieldAsked) {
        this.queue.shouldYield(job, [...this.handlers.keys()], Date.now() - turn.state.sliceStarted >= TIME_SLICE_MS ? 1 : 2)
          .then((should) => { if (should) turn.state.yieldAsked = true; })
          .catch(() => {});
      }
    }, CANCEL_CHECK_MS);
    const log = this.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    try {
      await runWithTurn({ yieldPoint: turn.yieldPoint, yieldAsked: turn.yieldAsked }, () => handler.run(job.payload, job, signal));
      await this.queue.complete(job.id, this.id);
      log.debug({ yields: turn.state.yields }, 'job done');
    } catch (err) {
      if (abort.signal.aborted && !this.abort.signal.aborted) {
        log.info({ reason: String(abort.signal.reason) }, 'job stopped: cancelled or taken over');
        return;
      }
      if (this.abort.signal.aborted) {
        // Shutting down: the job was interrupted, not failed; another worker (or this one after a restart) resumes it.
        await this.queue.release(job).catch((releaseErr) => log.warn({ err: releaseErr }, 'could not release job'));
        log.info('job released at shutdown');
        return;
      }
      const final = await this.queue.fail(job, this.id, err instanceof Error ? err.message : String(err), 2 ** job.attempts * 1000)
        .catch((failErr) => { log.error({ err: failErr }, 'could not record job failure'); return false; });
      log[final ? 'error' : 'warn']({ err }, final ? 'job failed for good' : 'job failed; will retry');
      if (final && handler.onGiveUp) await handler.onGiveUp(job.payload, err).catch((hookErr) => log.error({ err: hookErr }, 'onGiveUp failed'));
    } finally {
      clearInterval(heartbeat);
      clearInterval(cancelCheck);
      this.running.delete(job.id);
    }
  }
}
