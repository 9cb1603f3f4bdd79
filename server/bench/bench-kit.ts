import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One benchmark: `npm run bench` runs every registered one and prints its figures. */
export interface Benchmark {
  name: string;
  /** Which databases it runs on; each gets its own `run`. */
  databases: readonly ('pglite' | 'postgres')[];
  run(ctx: BenchContext): Promise<void>;
}

export interface BenchContext {
  database: 'pglite' | 'postgres';
  /** `BENCH_FULL=1` asks for the full sizes (slow); the default run stays small. */
  full: boolean;
  /** Prints one result line: a label and its figures. */
  report(label: string, figures: Record<string, string | number>): void;
}

export interface LoadResult {
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Drives `concurrency` keep-alive connections at one URL for `durationMs` and measures
 * throughput and latency. Runs in-process, so compare only results of the same run.
 */
export async function load(url: string, options: { concurrency: number; durationMs: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const once = () => new Promise<void>((resolve) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: options.headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) latencies.push(performance.now() - started);
        else errors++;
        resolve();
      });
    });
    req.on('error', () => { errors++; resolve(); });
  });
  const worker = async () => { while (performance.now() < deadline) await once(); };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, requestsPerSecond: latencies.length / elapsed, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

/**
 * Runs `fn` several times alternating with its baseline and keeps the median of each, and the
 * median of each round's subject/baseline ratio: a machine whose speed drifts during the run moves
 * both sides of a round alike, so many short rounds give a steadier ratio than the two medians.
 */
export async function alternate<T>(rounds: number, baseline: () => Promise<T>, subject: () => Promise<T>, pick: (r: T) => number): Promise<{ baseline: T; subject: T; ratio: number }> {
  const b: T[] = [];
  const s: T[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await baseline());
    s.push(await subject());
  }
  const median = (xs: T[]) => [...xs].sort((x, y) => pick(x) - pick(y))[Math.floor(xs.length / 2)]!;
  const ratios = s.map((r, i) => pick(r) / pick(b[i]!)).sort((x, y) => x - y);
  return { baseline: median(b), subject: median(s), ratio: ratios[Math.floor(ratios.length / 2)]! };
}

export const fmt = (value: number, digits = 2) => Number.isFinite(value) ? value.toFixed(digits) : 'n/a';

/** Starts an HTTP handler (an Express app) on a free loopback port. */
export async function listen(handler: http.RequestListener): Promise<{ server: Server; url: string; close(): void }> {
  const server = http.createServer(handler).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => { server.closeAllConnections(); server.close(); },
  };
}
