import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A whole Parley server (`src/main.ts`) in its own process, as an operator runs one instance. */
export interface ServiceProcess {
  url: string;
  pid: number;
  /** Kills the process with the signal and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const MAIN = path.join(import.meta.dirname, '..', 'main.ts');
const BUILT_MAIN = path.join(import.meta.dirname, '..', '..', 'dist', 'main.js');
/** The node flags of `npm start` (package.json). */
const START_FLAGS = ['--enable-source-maps', '--max-semi-space-size=64'];

export interface ServiceProcessOptions {
  /** Runs the built server (`server/dist/main.js`, what `npm start` runs) instead of the sources through tsx. */
  built?: boolean;
  /** More flags for node (`--cpu-prof`, …); they override npm start's. */
  nodeArgs?: string[];
  /** Runs this plain-JavaScript service instead, with `npm start`'s flags (a benchmark's floor); it prints `listening at <url>`. */
  script?: string;
}

/** Starts an instance with its own DATA_DIR (unless `env` names one) and the given environment; resolves once it listens. */
export async function startServiceProcess(env: Record<string, string>, options: ServiceProcessOptions = {}): Promise<ServiceProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-instance-'));
  // `nodeArgs` come after npm start's flags, so they may override them.
  const extra = options.nodeArgs ?? [];
  const args = options.script ? [...START_FLAGS, ...extra, options.script] : options.built ? [...START_FLAGS, ...extra, BUILT_MAIN] : [...extra, '--import', 'tsx', MAIN];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: os.tmpdir(), PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /(?:Parley is running|listening) at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`the instance exited before listening:\n${output}`)));
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
