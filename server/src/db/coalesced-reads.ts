interface Waiting<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(err: unknown): void;
}

/**
 * Reads that arrive together share a round trip. A read starts at once when none for its key is in
 * flight; the reads arriving meanwhile wait for it and then go together, as one, so a quiet
 * service adds no delay and a burst makes a handful of round trips instead of one per request
 * (issue 12: under a burst of 1,000 questions the database client's socket writes were a seventh of
 * the service's busy time). `readAll` answers a batch in order, one output per input. A batch that
 * fails is read again input by input, so one input that fails its read (a hostile visitor's
 * question) fails only its own request.
 */
export class CoalescedReads<In, Out> {
  /** Batches by key; present while a read for that key is in flight. */
  private readonly batches = new Map<string, Waiting<In, Out>[]>();

  constructor(private readonly readAll: (inputs: In[]) => Promise<Out[]>) {}

  read(key: string, input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const waiting = this.batches.get(key);
      if (waiting) {
        waiting.push({ input, resolve, reject });
        return;
      }
      const batch = [{ input, resolve, reject }];
      this.batches.set(key, batch);
      void this.flush(key, batch);
    });
  }

  /** Reads for the inputs waiting, again for those that arrived during the read, until none waits. */
  private async flush(key: string, batch: Waiting<In, Out>[]): Promise<void> {
    while (batch.length > 0) {
      const taken = batch.splice(0);
      try {
        const outputs = await this.readAll(taken.map((waiting) => waiting.input));
        taken.forEach((waiting, i) => waiting.resolve(outputs[i]!));
      } catch (err) {
        if (taken.length === 1) taken[0]!.reject(err);
        // One input may have failed the whole read (another visitor's question): each is read alone.
        else await Promise.all(taken.map((waiting) => this.readAll([waiting.input]).then((outputs) => waiting.resolve(outputs[0]!), waiting.reject)));
      }
    }
    this.batches.delete(key);
  }
}
