import type { Knex } from 'knex';
import { QUICK_LANE, type JobQueue } from '../../../jobs/job-queue.js';
import type { JobWorker } from '../../../jobs/job-worker.js';

/** The job kind that analyses one conversation. */
export const ANALYSE_CONVERSATION = 'analyse-conversation';

/** Payload of an analysis job: the job always reads the conversation's latest version. */
export interface AnalyseConversationPayload { conversationId: string; lane?: typeof QUICK_LANE }

/** Attempts per analysis (a provider outage); the last failure marks the analysis FAILED. */
export const ANALYSIS_MAX_ATTEMPTS = 3;

/**
 * Queues analyses. At most one analysis per conversation waits at a time (dedupeKey): saves
 * arriving while one waits are covered by it, since the job reads the conversation when it runs.
 * `delayMs` (ANALYSIS_DELAY_MS) holds each analysis back after the save that queued it, so an
 * operator paying per model call gets one analysis per burst of saves instead of one per save.
 */
export class AnalysisScheduler {
  constructor(private readonly jobs: JobQueue, private readonly worker: JobWorker, private readonly delayMs = 0) {}

  /** Queues an analysis in the caller's transaction, so a save never commits without one. */
  async schedule(conversationId: string, db: Knex): Promise<void> {
    // Quick: the analysis reads a bounded window of the conversation (analysis-window.ts).
    const payload: AnalyseConversationPayload = { conversationId, lane: QUICK_LANE };
    await this.jobs.enqueue(ANALYSE_CONVERSATION, payload, {
      dedupeKey: `${ANALYSE_CONVERSATION}:${conversationId}`, maxAttempts: ANALYSIS_MAX_ATTEMPTS, runAt: Date.now() + this.delayMs,
    }, db);
  }

  /** Wakes this process's idle workers after the transaction committed. */
  wake(): void {
    this.worker.notify();
  }
}
