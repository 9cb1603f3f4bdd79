import type { UsageRepository } from './usage.repository.js';

interface Waiter {
  resolve(granted: boolean): void;
  reject(err: unknown): void;
}

interface Batch {
  organisationId: string;
  month: string;
  limit: number | undefined;
  waiting: Waiter[];
  /** Set while a statement for this counter is in flight; arrivals meanwhile wait for the next one. */
  flushing: boolean;
}

/**
 * Counts chat messages against an organisation's month, batching the messages of one counter that
 * arrive together into one statement.
 *
 * Every message updates the same row (the organisation's month), and PostgreSQL holds that row's
 * lock until the commit is on disk: counted one statement each, a burst of 1,000 questions to one
 * organisation queued behind 1,000 commits, holding the connection pool while it waited (issue 12:
 * 2.6 s of the burst's median first event). Here at most one statement per counter is in flight
 * per instance; messages arriving meanwhile are added together by the next, so a burst costs a
 * handful of commits. The limit stays exact across instances: a batch is added only if all of it
 * fits, and one that does not is granted the room left under the limit.
 */
export class MessageCounter {
  private readonly batches = new Map<string, Batch>();

  constructor(private readonly repository: UsageRepository) {}

  /** Counts one message; resolves false when the month's `limit` is already reached (nothing counted). */
  count(organisationId: string, month: string, limit: number | undefined): Promise<boolean> {
    const key = `${organisationId}\u0000${month}\u0000${limit ?? ''}`;
    let batch = this.batches.get(key);
    if (!batch) {
      batch = { organisationId, month, limit, waiting: [], flushing: false };
      this.batches.set(key, batch);
    }
    const pending = new Promise<boolean>((resolve, reject) => batch.waiting.push({ resolve, reject }));
    if (!batch.flushing) void this.flush(key, batch);
    return pending;
  }

  private async flush(key: string, batch: Batch): Promise<void> {
    batch.flushing = true;
    while (batch.waiting.length > 0) {
      const waiters = batch.waiting.splice(0);
      try {
        const granted = await this.add(batch, waiters.length);
        waiters.forEach((waiter, i) => waiter.resolve(i < granted));
      } catch (err) {
        for (const waiter of waiters) waiter.reject(err);
      }
    }
    batch.flushing = false;
    this.batches.delete(key);
  }

  /** Adds up to `count` messages; returns how many were counted (all, unless the limit is reached). */
  private async add(batch: Batch, count: number): Promise<number> {
    const { organisationId, month, limit } = batch;
    // Without a limit the batch is always added.
    if ((await this.repository.incrementMessagesBy(organisationId, month, count, limit)) || limit === undefined) return count;
    // The batch does not fit: add what room is left, again while another instance takes some of it
    // first (counts only grow in a month, so this ends).
    let granted = 0;
    for (;;) {
      const room = Math.min(count - granted, limit - await this.repository.messages(organisationId, month));
      if (room <= 0) return granted;
      if (await this.repository.incrementMessagesBy(organisationId, month, room, limit)) granted += room;
    }
  }
}
