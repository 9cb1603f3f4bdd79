import { deflateRawSync } from 'node:zlib';
import type { TextUnit } from '../ingestion-types.js';
import { rms, SAMPLE_RATE, type AudioWindow } from './audio-windows.js';

/** Below this loudness a window is silence: Whisper is not asked, since it invents words for silence. */
export const SILENCE_RMS = 0.003;

/**
 * What Whisper says for silence, a tone or music (it was trained on subtitles that end so). A
 * window whose whole transcript is one of these holds no speech.
 */
const SILENCE_PHRASES = new Set(['you', 'thank you', 'thanks for watching', 'thank you for watching', 'bye', 'thank you very much', 'okay']);

/**
 * Text that compresses this well is a decoding loop ("Mmmmmm…", one phrase over and over): the
 * same threshold the Whisper reference implementation uses to reject a decoding.
 */
const MAX_COMPRESSION_RATIO = 2.4;

/** One segment of Whisper's output: text and its times in seconds from the window's start (the end may be missing). */
export interface WhisperSegment {
  text: string;
  timestamp: readonly [number, number | null];
}

const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();

function compressionRatio(text: string): number {
  const bytes = Buffer.from(text);
  return bytes.length / Math.max(1, deflateRawSync(bytes).length);
}

/** Whether a window is loud enough to hold speech. */
export function mayHoldSpeech(window: AudioWindow): boolean {
  return rms(window.samples) >= SILENCE_RMS;
}

/**
 * The timed units of one window's transcript, in video time. Drops what Whisper makes up rather
 * than hears: annotations (`[BLANK_AUDIO]`, `(music)`), decoding loops, and windows that say
 * nothing but a silence phrase.
 */
export function toTranscriptUnits(window: AudioWindow, segments: readonly WhisperSegment[]): TextUnit[] {
  const length = window.samples.length / SAMPLE_RATE;
  const kept = segments
    .map((segment) => ({ ...segment, text: segment.text.replace(/\[[^\]]*\]|\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim() }))
    .filter((segment) => normalise(segment.text) !== '' && compressionRatio(segment.text) <= MAX_COMPRESSION_RATIO);
  if (kept.every((segment) => SILENCE_PHRASES.has(normalise(segment.text)))) return [];
  const at = (seconds: number) => Math.round((window.startSeconds + Math.min(Math.max(seconds, 0), length)) * 100) / 100;
  return kept.map((segment) => ({
    text: segment.text,
    startSeconds: at(segment.timestamp[0]),
    endSeconds: at(segment.timestamp[1] ?? length),
  }));
}
