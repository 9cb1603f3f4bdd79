import { spawn } from 'node:child_process';

/** Whisper's input rate: mono samples per second. */
export const SAMPLE_RATE = 16_000;
/** Whisper reads 30 s at a time; a window is at most that long. */
export const WINDOW_SECONDS = 30;
/** A window ends at the quietest moment of its last seconds, so no word is cut in two. */
const CUT_SEARCH_SECONDS = 5;
const FRAME = SAMPLE_RATE / 10;

/** A stretch of decoded audio and where it starts in the video. */
export interface AudioWindow {
  startSeconds: number;
  samples: Float32Array;
}

/** Root mean square of samples: their loudness (0 is silence, 1 full scale). */
export function rms(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += samples[i]! * samples[i]!;
  return to > from ? Math.sqrt(sum / (to - from)) : 0;
}

/** Loudness from which a 100 ms frame counts as sound (speech onset) rather than silence or hum. */
const ONSET_RMS = 0.01;

/**
 * The window from its first sound on (less 200 ms), with its start moved to match. Whisper dates
 * the first words of a window at 0 however much silence precedes them, so a talk that starts
 * after a silent intro would be cited at the wrong moment.
 */
export function skipLeadingSilence(window: AudioWindow): AudioWindow {
  let onset = 0;
  while (onset + FRAME <= window.samples.length && rms(window.samples, onset, onset + FRAME) < ONSET_RMS) onset += FRAME;
  const from = Math.max(0, onset - 2 * FRAME);
  if (from === 0) return window;
  return { startSeconds: window.startSeconds + from / SAMPLE_RATE, samples: window.samples.subarray(from) };
}

/** Where a full window (`samples`, at least WINDOW_SECONDS long) ends: the start of its quietest 100 ms near the end. */
export function quietCut(samples: Float32Array): number {
  const end = Math.min(samples.length, WINDOW_SECONDS * SAMPLE_RATE);
  let best = end;
  let quietest = Infinity;
  for (let start = end - FRAME; start >= end - CUT_SEARCH_SECONDS * SAMPLE_RATE && start > 0; start -= FRAME / 2) {
    const loudness = rms(samples, start, start + FRAME);
    if (loudness < quietest) {
      quietest = loudness;
      best = start + FRAME / 2;
    }
  }
  return best;
}

/**
 * Cuts a stream of 32-bit little-endian float samples (ffmpeg's `f32le`) into windows of at most
 * WINDOW_SECONDS, each ending at a quiet moment; memory stays at one window whatever the length.
 */
export async function* audioWindows(bytes: AsyncIterable<Buffer>): AsyncGenerator<AudioWindow> {
  const capacity = (WINDOW_SECONDS + 1) * SAMPLE_RATE;
  let buffer = new Float32Array(capacity);
  let filled = 0;
  let consumed = 0;
  let carry = Buffer.alloc(0);
  const take = (count: number): AudioWindow => {
    const window = { startSeconds: consumed / SAMPLE_RATE, samples: buffer.slice(0, count) };
    buffer.copyWithin(0, count, filled);
    filled -= count;
    consumed += count;
    return window;
  };
  for await (const chunk of bytes) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = data.length - (data.length % 4);
    carry = Buffer.from(data.subarray(whole));
    for (let offset = 0; offset < whole;) {
      const count = Math.min((whole - offset) / 4, capacity - filled);
      for (let i = 0; i < count; i++) buffer[filled + i] = data.readFloatLE(offset + i * 4);
      filled += count;
      offset += count * 4;
      if (filled >= WINDOW_SECONDS * SAMPLE_RATE) yield take(quietCut(buffer.subarray(0, filled)));
    }
  }
  if (filled > 0) yield take(filled);
  buffer = new Float32Array(0);
}

/** The audio of a media file as 16 kHz mono float samples, decoded by ffmpeg in its own process. */
export async function* decodeAudio(ffmpegPath: string, filePath: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  // The upload is untrusted: ffmpeg reads that one local file and follows no reference out of it.
  const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${filePath}`, '-vn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1'];
  const ffmpeg = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  ffmpeg.stderr.on('data', (data: Buffer) => { stderr = (stderr + data.toString()).slice(-2000); });
  const exited = new Promise<number | null>((resolve, reject) => {
    ffmpeg.once('error', reject);
    ffmpeg.once('close', resolve);
  });
  exited.catch(() => undefined);
  let decoded = 0;
  for await (const chunk of ffmpeg.stdout as AsyncIterable<Buffer>) {
    decoded += chunk.length;
    yield chunk;
  }
  const code = await exited;
  // A video without an audio track has nothing to transcribe: it ends with no samples, not an error.
  if (code !== 0 && decoded > 0) throw new Error(`ffmpeg stopped decoding (exit code ${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`);
}
