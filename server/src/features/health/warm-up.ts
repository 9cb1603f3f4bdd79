import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

/** One thing an instance loads before its first visitors need it. */
export interface WarmUpStep {
  name: string;
  /** Resolves to a summary for the log line. */
  run(): Promise<Record<string, unknown> | void>;
}

/**
 * What a starting instance loads in the background after it listens (the sentence encoder, the
 * term indexes of the knowledge visitors ask about most), so a restart or an instance added to a
 * cluster under load does not make its first visitors wait for it. `GET /health/ready` answers 503
 * until it is done: a load balancer's readiness probe sends visitors elsewhere meanwhile. A step
 * that fails is logged and counts as done: the instance still answers, only more slowly at first.
 */
export class WarmUp {
  private started?: Promise<void>;
  private finished = false;

  constructor(private readonly steps: readonly WarmUpStep[], private readonly logger: Logger) {}

  /** Whether every step has finished (or failed). */
  get done(): boolean {
    return this.finished;
  }

  /** Runs the steps one after the other, once however often it is called. */
  start(): Promise<void> {
    return this.started ??= (async () => {
      for (const step of this.steps) {
        const begun = performance.now();
        try {
          const summary = await step.run();
          this.logger.info({ step: step.name, ms: Math.round(performance.now() - begun), ...summary }, 'warmed up');
        } catch (err) {
          this.logger.warn({ err, step: step.name }, 'warm-up step failed; it happens on first use instead');
        }
      }
      this.finished = true;
    })();
  }
}
