/** Who waits for an encoding: a visitor's question (and its candidate sentences), or background work (ingestion, stored vectors). */
export type EncodePriority = 'question' | 'background';

/**
 * The encoder worker's calls, one at a time: when one ends, the oldest waiting question's call goes
 * next, and a background call only when no question waits. A question so waits behind at most the
 * one background call already in flight (a few sentences), never behind the queue of them; and
 * background calls of concurrent jobs take turns in the order they were asked.
 */
export class EncodeQueue<T> {
  private readonly waiting: Record<EncodePriority, (() => void)[]> = { question: [], background: [] };
  private busy = false;

  constructor(private readonly run: (texts: string[]) => Promise<T>) {}

  /** Calls waiting (not the one in flight), by priority. */
  get queued(): Record<EncodePriority, number> {
    return { question: this.waiting.question.length, background: this.waiting.background.length };
  }

  /**
   * Runs `texts` through the worker when its turn comes. A call still waiting when `signal` aborts
   * leaves the queue and rejects with the signal's reason (one in flight runs to its end).
   */
  push(priority: EncodePriority, texts: string[], signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const abandon = () => {
        const index = this.waiting[priority].indexOf(call);
        if (index >= 0) this.waiting[priority].splice(index, 1);
        reject(signal!.reason);
      };
      const call = () => {
        signal?.removeEventListener('abort', abandon);
        Promise.resolve().then(() => this.run(texts)).then(resolve, reject).finally(() => {
          this.busy = false;
          this.next();
        });
      };
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiting[priority].push(call);
      this.next();
    });
  }

  private next(): void {
    if (this.busy) return;
    const call = this.waiting.question.shift() ?? this.waiting.background.shift();
    if (!call) return;
    this.busy = true;
    call();
  }
}
