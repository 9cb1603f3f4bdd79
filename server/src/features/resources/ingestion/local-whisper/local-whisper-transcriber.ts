import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { currentTurn, type JobTurn } from '../../../../jobs/job-yield.js';
import { IngestionFailedError, NoTextFoundError, type TextUnit } from '../ingestion-types.js';
import type { Transcriber } from '../stages/transcribe-audio.js';
import type { WhisperMessage, WhisperRequest } from './whisper-child.js';
import { findWhisperRuntime } from './whisper-runtime.js';

// Under tsx (development, tests) the child is TypeScript; compiled, it is bundled beside this code (scripts/build.mjs).
const childModule = fileURLToPath(new URL(`./whisper-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const childExecArgv = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];

/**
 * Runs one transcription in a whisper child process; aborting the signal kills it. When the job
 * worker asks the job to yield (another organisation waits, job-yield.ts), the child is stopped
 * after a window (SIGSTOP: its state stays in memory) while another job runs in the slot, then
 * continued: nothing is transcribed twice.
 */
function runWhisperChild(request: WhisperRequest, signal?: AbortSignal, onProgress?: (fraction: number) => void, turn?: JobTurn): Promise<TextUnit[]> {
  return new Promise((resolve, reject) => {
    const child = fork(childModule, [], { execArgv: childExecArgv, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced', signal });
    const units: TextUnit[] = [];
    let duration: number | undefined;
    let settled = false;
    let paused = false;
    const pauseForTurn = () => {
      if (!turn?.yieldAsked() || paused || settled) return;
      paused = true;
      child.kill('SIGSTOP');
      void turn.yieldPoint().catch(() => {}).finally(() => {
        paused = false;
        if (!settled) child.kill('SIGCONT');
      });
    };
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      child.kill();
    };
    child.on('message', (message: WhisperMessage) => {
      if (message.type === 'duration') duration = message.seconds;
      else if (message.type === 'window') {
        units.push(...message.units);
        if (duration) onProgress?.(Math.min(1, message.doneSeconds / duration));
        pauseForTurn();
      } else if (message.type === 'done') settle(() => resolve(units));
      else settle(() => reject(new IngestionFailedError(`offline transcription failed: ${message.message}`)));
    });
    child.on('error', (err) => settle(() => reject(signal?.aborted ? signal.reason : err)));
    child.on('exit', (code, exitSignal) => settle(() => reject(new Error(`the transcription process stopped (${exitSignal ?? `exit code ${code}`})`))));
    child.send(request);
  });
}

/**
 * Offline transcription with Whisper tiny, from the optional runtime that `npm run
 * install:transcription` installs (no network at install or run time beyond the npm registry).
 * The spoken language is detected per video (`auto`) or given (`language`, LOCAL_TRANSCRIPTION_LANGUAGE).
 * The runtime is looked up at each video, so installing it takes effect without a restart; a
 * video read while it is missing ends `FAILED_NO_TEXT_FOUND`, its reason saying how to install it.
 */
export function localWhisperTranscriber(runtimeDir: string, language = 'auto'): Transcriber {
  return {
    async transcribe(filePath, signal, onProgress) {
      const found = findWhisperRuntime(runtimeDir);
      if ('missing' in found) throw new NoTextFoundError(`the video has no subtitle track and no transcription provider is configured; ${found.missing}`);
      return runWhisperChild({ runtime: found.runtime, filePath, language }, signal, onProgress, currentTurn());
    },
  };
}
