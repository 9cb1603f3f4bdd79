import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canMakeSpeechVideos, makeSpeechVideo, MUSEUM_TALK } from '../fixtures/make-speech-video.js';
import { NoTextFoundError } from '../ingestion-types.js';
import { localWhisperTranscriber } from './local-whisper-transcriber.js';
import { findWhisperRuntime } from './whisper-runtime.js';

const RUNTIME_DIR = path.resolve(import.meta.dirname, '../../../../../transcription-runtime');
// CI installs the runtime (.ci/run) and espeak-ng with ffmpeg; elsewhere these need `npm run install:transcription`.
const canTranscribe = 'runtime' in findWhisperRuntime(RUNTIME_DIR) && canMakeSpeechVideos();

describe.skipIf(!canTranscribe && !process.env.CI)('localWhisperTranscriber', () => {
  let work: string;
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-whisper-'));
    // Two windows: the talk in the first, silence in the second (skipped without asking Whisper).
    makeSpeechVideo(path.join(work, 'talk.mp4'), [{ text: MUSEUM_TALK, atSeconds: 4 }], 40);
  });
  afterAll(() => { if (work) fs.rmSync(work, { recursive: true, force: true }); });

  it('reports progress window by window up to the whole length, and dates the speech in video time', async () => {
    const progress: number[] = [];
    const units = await localWhisperTranscriber(RUNTIME_DIR).transcribe(path.join(work, 'talk.mp4'), undefined, (fraction) => progress.push(fraction));
    expect(progress).toHaveLength(2);
    expect(progress[0]).toBeGreaterThan(0.6);
    expect(progress[0]).toBeLessThan(0.8);
    expect(progress[1]).toBe(1);
    expect(units.map((unit) => unit.text).join(' ')).toMatch(/museum.*visitors/i);
    expect(units[0]!.startSeconds).toBeGreaterThan(3);
    expect(units[0]!.startSeconds).toBeLessThan(5);
    for (const unit of units) expect(unit.endSeconds).toBeGreaterThan(unit.startSeconds!);
  }, 120_000);

  it('hears the language spoken and transcribes in it (German here), unless told a language', async () => {
    const video = path.join(work, 'german.mp4');
    const text = 'Willkommen im Stadtmuseum. Das Museum öffnet um zehn Uhr morgens. Das Parken ist für alle Besucher kostenlos.';
    makeSpeechVideo(video, [{ text, atSeconds: 1, voice: 'de' }], 12);
    const heard = async (language?: string) => (await localWhisperTranscriber(RUNTIME_DIR, language).transcribe(video)).map((unit) => unit.text).join(' ');
    // Detected, Whisper writes German ("Wir kommen in Stratten-Museum."); told English, it writes English words for the same sounds.
    expect(await heard()).toMatch(/Museum/);
    expect(await heard('en')).not.toMatch(/Museum/);
  }, 120_000);

  it('stops the transcription when its job is aborted', async () => {
    const abort = new AbortController();
    const transcription = localWhisperTranscriber(RUNTIME_DIR).transcribe(path.join(work, 'talk.mp4'), abort.signal);
    abort.abort(new Error('the job was cancelled'));
    await expect(transcription).rejects.toThrow();
  });
});

describe('localWhisperTranscriber without its runtime', () => {
  it('fails with FAILED_NO_TEXT_FOUND\'s error, saying how to install the runtime', async () => {
    const transcription = localWhisperTranscriber(path.join(os.tmpdir(), 'no-such-runtime')).transcribe('/dev/null');
    await expect(transcription).rejects.toBeInstanceOf(NoTextFoundError);
    await expect(transcription).rejects.toThrow('npm run install:transcription');
  });
});
