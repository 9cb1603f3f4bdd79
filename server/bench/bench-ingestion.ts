import { performance } from 'node:perf_hooks';
import type { Services } from '../src/services.js';

/** Runs the worker until the queue is empty; returns the seconds it took from `started`. */
export async function drainJobs(services: Services, started: number): Promise<number> {
  services.worker.notify();
  while (await services.jobs.pendingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  return (performance.now() - started) / 1000;
}

/** Fails the benchmark unless the resource ended DONE (a figure of a failed run means nothing). */
export async function assertResourceDone(services: Services, id: string): Promise<void> {
  const row = await services.database.db('resources').where({ id }).first('ai_processing_status', 'failure_reason');
  if (row.ai_processing_status !== 'DONE') throw new Error(`resource ${id} ended ${row.ai_processing_status}: ${row.failure_reason}`);
}
