import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
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
const PAGE_SIZE = 4096;

// Under tsx (development, tests) this module is TypeScript and so is the child; compiled, both are .js.
const childModule = fileURLToPath(new URL(`./parser-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const childExecArgv = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];

async function residentMb(pid: number): Promise<number> {
  const statm = await fs.readFile(`/proc/${pid}/statm`, 'utf8').catch(() => '');
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

  constructor(private readonly limits: ParserLimits) {
    // The heap limit is a first line; the resident-size watchdog also counts buffers (a Flate bomb).
    this.child = fork(childModule, [], {
      execArgv: [...childExecArgv, `--max-old-space-size=${Math.max(64, Math.floor(limits.memoryMb * 0.75))}`],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced',
    });
    this.child.on('message', (message: { id: number; result?: unknown; error?: { kind: string; message: string } }) => this.settle(message));
    this.child.on('exit', (code, signal) => this.kill(this.failure ?? new IngestionFailedError(`the parser stopped (${signal ?? `exit code ${code}`})`)));
    this.watchdog = setInterval(() => {
      if (this.child.pid === undefined) return;
      void residentMb(this.child.pid).then((mb) => {
        if (mb > limits.memoryMb) this.kill(new IngestionFailedError(`parsing used more than ${limits.memoryMb} MB of memory`));
      });
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
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.kill(new IngestionFailedError(`parsing took longer than ${Math.round(this.limits.timeoutMs / 1000)} s`)), this.limits.timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.child.send({ id, op, args });
    });
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

/**
 * Runs `work` with a parser whose child process is started on first use, replaced when a request
 * killed it (one hostile page of a crawl does not fail the others), and always ended afterwards.
 */
export async function withParser<T>(limits: ParserLimits, signal: AbortSignal | undefined, work: (parser: Parser) => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  let current: ParserProcess | undefined;
  const parser: Parser = {
    call: (op, ...args) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (!current || current.ended) current = new ParserProcess(limits);
      return current.call(op, ...args);
    },
  };
  const onAbort = () => current?.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await work(parser);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    current?.close();
  }
}
