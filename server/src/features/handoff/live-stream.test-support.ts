import type { LiveEvent } from '@parley/shared';

/** One received live event: its `id:` and its data. */
export interface ReceivedEvent { id: number; event: LiveEvent }

/** A live event stream read with fetch, as the widget and the console read it. */
export interface LiveStreamClient {
  status: number;
  /** Every event received so far. */
  readonly events: ReceivedEvent[];
  /** Resolves with the first event (received or to come) after the `from`-th that `match` accepts. */
  waitFor(match: (event: ReceivedEvent) => boolean, from?: number): Promise<ReceivedEvent>;
  close(): void;
}

/** Opens a live stream; resolves once the response's headers arrived. */
export async function openLiveStream(url: string, headers: Record<string, string> = {}): Promise<LiveStreamClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const events: ReceivedEvent[] = [];
  let wake: () => void = () => {};
  let changed = new Promise<void>((resolve) => { wake = resolve; });
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (\d+)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (id === undefined || data === undefined) continue;
            events.push({ id: Number(id), event: JSON.parse(data) as LiveEvent });
            const previous = wake;
            changed = new Promise<void>((resolve) => { wake = resolve; });
            previous();
          }
        }
      } catch {
        // Closed by the test.
      }
    })();
  } else {
    await res.body?.cancel();
  }
  return {
    status: res.status,
    events,
    async waitFor(match, from = 0) {
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        await changed;
      }
    },
    close: () => abort.abort(),
  };
}
