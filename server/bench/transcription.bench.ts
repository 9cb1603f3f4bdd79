import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { canMakeSpeechVideos, makeSpeechVideo, MUSEUM_TALK, type SpokenLine } from '../src/features/resources/ingestion/fixtures/make-speech-video.js';
import { audioWindows, decodeAudio, SAMPLE_RATE } from '../src/features/resources/ingestion/local-whisper/audio-windows.js';
import { localWhisperTranscriber } from '../src/features/resources/ingestion/local-whisper/local-whisper-transcriber.js';
import { findWhisperRuntime } from '../src/features/resources/ingestion/local-whisper/whisper-runtime.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';

const RUNTIME_DIR = path.resolve(import.meta.dirname, '../transcription-runtime');

const words = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];

/** Share of the talk's words heard: each reference word matched at most once by a transcript word. */
function wordsHeard(reference: string, transcript: string): number {
  const heard = new Map<string, number>();
  for (const word of words(transcript)) heard.set(word, (heard.get(word) ?? 0) + 1);
  const spoken = words(reference);
  let found = 0;
  for (const word of spoken) {
    const left = heard.get(word) ?? 0;
    if (left > 0) { found++; heard.set(word, left - 1); }
  }
  return found / spoken.length;
}

async function run(ctx: BenchContext): Promise<void> {
  const found = findWhisperRuntime(RUNTIME_DIR);
  if ('missing' in found || !canMakeSpeechVideos()) {
    ctx.report('skipped', { reason: 'missing' in found ? 'npm run install:transcription' : 'espeak-ng and ffmpeg (apt)' });
    return;
  }
  // The museum talk (about 14 s) every 20 s: a video of mostly speech, like a narrated tutorial.
  const seconds = ctx.full ? 300 : 60;
  const lines: SpokenLine[] = Array.from({ length: seconds / 20 }, (_, i) => ({ text: MUSEUM_TALK, atSeconds: 1 + i * 20 }));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-bench-whisper-'));
  try {
    const video = path.join(dir, 'talk.mp4');
    makeSpeechVideo(video, lines, seconds);
    // Baseline: decoding and windowing the same audio alone (ffmpeg), what transcription adds Whisper to.
    let started = performance.now();
    let samples = 0;
    for await (const window of audioWindows(decodeAudio(found.runtime.ffmpegPath, video))) samples += window.samples.length;
    const decodeSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const units = await localWhisperTranscriber(RUNTIME_DIR).transcribe(video);
    const whisperSeconds = (performance.now() - started) / 1000;
    const audioSeconds = samples / SAMPLE_RATE;
    ctx.report(`ffmpeg decode of ${fmt(audioSeconds, 0)} s of audio (baseline)`, { seconds: fmt(decodeSeconds), 'x real time': fmt(audioSeconds / decodeSeconds, 0) });
    ctx.report(`Whisper tiny transcription, ${lines.length} talks`, { seconds: fmt(whisperSeconds), 'x real time': fmt(audioSeconds / whisperSeconds, 1) });
    ctx.report('transcription cost: decode speed ÷ transcription speed', { ratio: fmt(whisperSeconds / decodeSeconds, 0) });
    ctx.report('words of the talk heard', { share: `${fmt(wordsHeard(lines.map((line) => line.text).join(' '), units.map((unit) => unit.text).join(' ')) * 100)}%`, passages: units.length });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Offline transcription speed (times real time) against decoding alone, and how much of a spoken talk it hears. */
export const benchmark: Benchmark = { name: 'offline transcription', databases: ['pglite'], run };
