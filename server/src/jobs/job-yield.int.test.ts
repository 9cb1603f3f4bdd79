import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { JobQueue } from './job-queue.js';
import { JobWorker } from './job-worker.js';
import { yieldPoint } from './job-yield.js';

// Long jobs of any kind (crawls, OCR, sentence vectors) yield between their units of work: a
// tenant that took both slots while alone gives one to a tenant that comes, and its jobs go on
// where they stopped, every unit done exactly once.
let ctx: TestContext;
let queue: JobQueue;
beforeAll(async () => {
  ctx = await createTestContext();
  queue = new JobQueue(ctx.database.db);
});
afterAll(async () => { await ctx?.close(); });

interface Units { organisationId: string; name: string; units: number }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('JobWorker yielding', () => {
  it('runs a waiting organisation\'s job in a yielding slot; the paused job loses no unit of work', async () => {
    const done: string[] = [];
    const finished: string[] = [];
    const worker = new JobWorker(queue, pino({ level: 'silent' }), { concurrency: 2, quickSlots: 0, pollIntervalMs: 20 });
    worker.register<Units>('yield-test', {
      async run(payload, _job, signal) {
        for (let unit = 0; unit < payload.units; unit++) {
          await yieldPoint();
          signal.throwIfAborted();
          await sleep(100);
          done.push(`${payload.name}:${unit}`);
        }
        finished.push(payload.name);
      },
    });
    await queue.enqueue('yield-test', { organisationId: 'big', name: 'big-1', units: 120 });
    await queue.enqueue('yield-test', { organisationId: 'big', name: 'big-2', units: 120 });
    worker.start();
    try {
      // Alone, the organisation runs both jobs at once.
      await expect.poll(() => ['big-1', 'big-2'].map((name) => done.some((unit) => unit.startsWith(`${name}:`))), { timeout: 10_000 }).toEqual([true, true]);
      await queue.enqueue('yield-test', { organisationId: 'small', name: 'small', units: 3 });
      worker.notify();
      await expect.poll(() => finished, { timeout: 15_000 }).toContain('small');
      // The small organisation's job ended while both long jobs still had work left.
      expect(finished).toEqual(['small']);
      await expect.poll(() => finished.length, { timeout: 60_000 }).toBe(3);
      for (const name of ['big-1', 'big-2']) {
        const units = done.filter((unit) => unit.startsWith(`${name}:`));
        expect(units).toEqual(Array.from({ length: 120 }, (_, unit) => `${name}:${unit}`));
      }
    } finally {
      await worker.stop();
    }
  }, 90_000);
});
