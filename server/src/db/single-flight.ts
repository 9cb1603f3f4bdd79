/**
 * Coalesces concurrent identical reads: a caller asking for a key while a read of it is in flight
 * shares that read instead of starting another. Nothing is kept once the read settles, so it is
 * no cache: a burst of 1,000 questions to one chatbot reads it a few times, not 1,000.
 * Callers share the result object: treat it as read-only.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, read: () => Promise<T>): Promise<T> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      const started = read().finally(() => {
        if (this.inFlight.get(key) === started) this.inFlight.delete(key);
      });
      this.inFlight.set(key, (pending = started));
    }
    return pending;
  }

  /**
   * After a write: callers from now on start a fresh read rather than join one that began before
   * the write and may return what it replaced.
   */
  clear(): void {
    this.inFlight.clear();
  }
}
