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

  /** Runs `texts` through the worker when its turn comes. */
  push(priority: EncodePriority, texts: string[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting[priority].push(() => {
        Promise.resolve().then(() => this.run(texts)).then(resolve, reject).finally(() => {
          this.busy = false;
          this.next();
        });
      });
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
