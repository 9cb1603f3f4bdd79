import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a long job may give its slot away for a while. The job worker runs every handler inside
 * a context holding the job's turn (below); a long stage calls `yieldPoint()` between its units of
 * work (a crawled page, an OCR page, a batch of sentence vectors). Outside a job it does nothing.
 */
export interface JobTurn {
  /** Runs another job in this job's slot when the worker asked this one to yield; resolves when it may go on. */
  yieldPoint(): Promise<void>;
  /** Whether the worker asked this job to yield (work done outside this process pauses only then). */
  yieldAsked(): boolean;
}

const current = new AsyncLocalStorage<JobTurn>();

/** Runs a job's handler with its turn, so that `yieldPoint()` in any stage it calls reaches it. */
export function runWithTurn<T>(turn: JobTurn, run: () => Promise<T>): Promise<T> {
  return current.run(turn, run);
}

/**
 * A point between two units of a long job's work where nothing is half done: when another
 * organisation waits for a slot that this job's organisation holds more than its share of, the
 * job pauses here while a job of that organisation runs in its slot, then goes on where it
 * stopped (its state is in memory: nothing is lost or read twice). Cheap when nobody waits.
 */
export function yieldPoint(): Promise<void> {
  return current.getStore()?.yieldPoint() ?? Promise.resolve();
}

/** The running job's turn, for work whose units end in callbacks outside the job's async context (a child process's messages). */
export function currentTurn(): JobTurn | undefined {
  return current.getStore();
}
