import http from 'node:http';
import type { LiveEvent } from '@parley/shared';

/** One received live event: its `id:` and its data. */
export interface ReceivedEvent { id: number; event: LiveEvent }

/** A live event stream, read as it arrives. */
export interface LiveStreamClient {
  status: number;
  /** Every event received so far. */
  readonly events: ReceivedEvent[];
  /** Resolves with the first event (received or to come) after the `from`-th that `match` accepts. */
  waitFor(match: (event: ReceivedEvent) => boolean, from?: number): Promise<ReceivedEvent>;
  close(): void;
}

/**
 * Opens a live stream; resolves once the response's headers arrived. `localAddress` (a loopback
 * address such as 127.0.0.7) makes it another visitor address, for the per-address limits.
 */
export async function openLiveStream(url: string, headers: Record<string, string> = {}, localAddress?: string): Promise<LiveStreamClient> {
  const events: ReceivedEvent[] = [];
  let wake: () => void = () => {};
  let changed = new Promise<void>((resolve) => { wake = resolve; });
  const req = http.get(url, { headers, agent: false, ...(localAddress ? { localAddress } : {}) });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => req.once('response', resolve).once('error', reject));
  if (res.statusCode === 200) {
    let buffer = '';
    res.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
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
    });
    res.on('error', () => {});
  } else {
    res.resume();
  }
  return {
    status: res.statusCode ?? 0,
    events,
    async waitFor(match, from = 0) {
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        await changed;
      }
    },
    close: () => req.destroy(),
  };
}
