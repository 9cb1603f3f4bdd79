import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IngestionFailedError, NoTextFoundError } from '../ingestion-types.js';
import type { ParserOperations } from './parser-child.js';

/** The limits of one parser process (PARSE_TIMEOUT_MS, PARSE_MEMORY_MB). */
export interface ParserLimits {
  /** Each request must answer within this time; the process is killed otherwise. */
  timeoutMs: number;
  /** Resident memory the process may reach (heap and buffers together); it is killed above it. */
  memoryMb: number;
}

const MEMORY_CHECK_MS = 200;
/** Operations that leave state in the process after they answer: a process that ran one serves no other job. */
const STATEFUL_OPERATIONS: ReadonlySet<keyof ParserOperations> = new Set(['ocrPdfPage']);
/** A process serves at most this many jobs (a bound on what a long-lived heap may accumulate). */
const MAX_JOBS_PER_PROCESS = 50;
/** Idle processes kept for the next jobs, per set of limits, and for how long. */
const MAX_IDLE_PROCESSES = 2;
const IDLE_MS = 30_000;
const PAGE_SIZE = 4096;

// Under tsx (development, tests) this module is TypeScript and so is the child; compiled, both are .js.
const childModule = fileURLToPath(new URL(`./parser-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const childExecArgv = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];

/**
 * The process's resident size, read from procfs (in memory: the read never waits on a disk). Read
 * synchronously: the promise-based readFile (open, stat, read, close, each a round trip through
 * the thread pool) cost about 10 times the CPU per check (240–340 µs against 20–35 µs), and the
 * watchdog checks every parser process 5 times a second on the service's thread.
 */
function residentMb(pid: number): number {
  let statm = '';
  try {
    statm = fs.readFileSync(`/proc/${pid}/statm`, 'utf8');
  } catch {
    /* the process is gone (its exit is handled), or no procfs: no reading */
  }
  return (Number(statm.split(' ')[1] ?? 0) * PAGE_SIZE) / (1024 * 1024);
}

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void; timer: NodeJS.Timeout };

/**
 * A child process that parses untrusted input (PDFs, MP4 subtitle tracks, HTML) off the service's
 * event loop, within a time limit per request and a memory limit checked on its resident size. A
 * request over a limit kills the process and fails with IngestionFailedError naming the limit.
 */
export class ParserProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly watchdog: NodeJS.Timeout;
  private nextId = 1;
  private failure?: Error;
  /** Whether a request left state in the process that outlives it (OCR keeps a recogniser and the PDF open). */
  private stateful = false;
  /** Jobs this process has served (`withParser` reuses it for a number of them). */
  jobs = 0;

  constructor(private readonly limits: ParserLimits) {
    // The heap limit is a first line; the resident-size watchdog also counts buffers (a Flate bomb).
    this.child = fork(childModule, [], {
      execArgv: [...childExecArgv, `--max-old-space-size=${Math.max(64, Math.floor(limits.memoryMb * 0.75))}`],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced',
    });
    this.child.on('message', (message: { id: number; result?: unknown; error?: { kind: string; message: string } }) => this.settle(message));
    this.child.on('exit', (code, signal) => this.kill(this.failure ?? new IngestionFailedError(`the parser stopped (${signal ?? `exit code ${code}`})`)));
    this.watchdog = setInterval(() => {
      // Only a request grows the process: an idle one (kept for the next job) is not read.
      if (this.child.pid === undefined || this.pending.size === 0) return;
      if (residentMb(this.child.pid) > limits.memoryMb) this.kill(new IngestionFailedError(`parsing used more than ${limits.memoryMb} MB of memory`));
    }, MEMORY_CHECK_MS);
    this.watchdog.unref();
  }

  /** Whether the child ended (killed at a limit, crashed or closed): it takes no more requests. */
  get ended(): boolean {
    return this.failure !== undefined;
  }

  /** Runs one parser operation in the child. */
  call<K extends keyof ParserOperations>(op: K, ...args: Parameters<ParserOperations[K]>): Promise<Awaited<ReturnType<ParserOperations[K]>>> {
    if (this.failure) return Promise.reject(this.failure);
    if (STATEFUL_OPERATIONS.has(op)) this.stateful = true;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.kill(new IngestionFailedError(`parsing took longer than ${Math.round(this.limits.timeoutMs / 1000)} s`)), this.limits.timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.child.send({ id, op, args });
    });
  }

  /**
   * Whether the process may serve another job: alive, idle, without state a request left behind,
   * below its job count and with its resident size under half its limit.
   */
  async reusable(): Promise<boolean> {
    if (this.failure || this.pending.size > 0 || this.stateful || this.jobs >= MAX_JOBS_PER_PROCESS || this.child.pid === undefined) return false;
    return residentMb(this.child.pid) <= this.limits.memoryMb / 2;
  }

  /** Whether the process keeps the service's event loop alive (an idle one in the pool does not). */
  hold(held: boolean): void {
    if (held) this.child.ref();
    else this.child.unref();
    const channel = this.child.channel as { ref?: () => void; unref?: () => void } | undefined;
    if (held) channel?.ref?.();
    else channel?.unref?.();
  }

  /** Ends the child (always call it, also after a failure). */
  close(): void {
    this.kill(new Error('the parser was closed'));
  }

  private settle(message: { id: number; result?: unknown; error?: { kind: string; message: string } }): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (!message.error) return pending.resolve(message.result);
    const { kind, message: text } = message.error;
    pending.reject(kind === 'no-text' ? new NoTextFoundError(text) : kind === 'failed' ? new IngestionFailedError(text) : new Error(text));
  }

  private kill(reason: Error): void {
    this.failure ??= reason;
    clearInterval(this.watchdog);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.reject(this.failure);
    }
  }
}

/** What a job uses: parser calls, each in a live child (a new one after a page killed the last). */
export type Parser = Pick<ParserProcess, 'call'>;

/** Idle parser processes by their limits, each with the timer that ends it. */
const idle = new Map<string, { child: ParserProcess; timer: NodeJS.Timeout }[]>();
const limitsKey = (limits: ParserLimits) => `${limits.timeoutMs}/${limits.memoryMb}`;

function takeIdle(limits: ParserLimits): ParserProcess | undefined {
  const list = idle.get(limitsKey(limits)) ?? [];
  for (let entry = list.pop(); entry; entry = list.pop()) {
    clearTimeout(entry.timer);
    if (entry.child.ended) continue;
    entry.child.hold(true);
    return entry.child;
  }
  return undefined;
}

/** After a job: a healthy child waits idle for the next job (for a while), any other one ends. */
async function release(child: ParserProcess, limits: ParserLimits): Promise<void> {
  if (!await child.reusable().catch(() => false)) return child.close();
  const list = idle.get(limitsKey(limits)) ?? [];
  idle.set(limitsKey(limits), list);
  if (list.length >= MAX_IDLE_PROCESSES) return child.close();
  child.hold(false);
  const timer = setTimeout(() => {
    const at = list.findIndex((entry) => entry.child === child);
    if (at >= 0) list.splice(at, 1);
    child.close();
  }, IDLE_MS);
  timer.unref();
  list.push({ child, timer });
}

/** Ends the idle parser processes (a service stopping; tests). */
export function closeIdleParsers(): void {
  for (const list of idle.values()) {
    for (const { child, timer } of list.splice(0)) {
      clearTimeout(timer);
      child.close();
    }
  }
}

/**
 * Runs `work` with a parser whose child process is taken on first use, from the processes earlier
 * jobs left idle or newly started (a start costs most of a second of CPU), replaced when a request
 * killed it (one hostile page of a crawl does not fail the others). Afterwards a healthy process
 * is kept idle for the next job for a while; one that failed, still has a request running, ran
 * OCR or grew past half its memory limit is ended.
 */
export async function withParser<T>(limits: ParserLimits, signal: AbortSignal | undefined, work: (parser: Parser) => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  let current: ParserProcess | undefined;
  const parser: Parser = {
    call: (op, ...args) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (!current || current.ended) {
        current = takeIdle(limits) ?? new ParserProcess(limits);
        current.jobs++;
      }
      return current.call(op, ...args);
    },
  };
  const onAbort = () => current?.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await work(parser);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (current) void release(current, limits);
  }
}
