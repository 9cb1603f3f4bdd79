import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TextUnit } from '../ingestion-types.js';

/** Turns a video's speech into timed text. */
export interface Transcriber {
  /** `onProgress` receives the share of the audio done so far (0..1), when the transcriber can tell. */
  transcribe(filePath: string, signal?: AbortSignal, onProgress?: (fraction: number) => void): Promise<TextUnit[]>;
}

const TranscriptionSchema = z.object({
  text: z.string().default(''),
  segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).optional(),
});

const TRANSCRIPTION_TIMEOUT_MS = 10 * 60_000;

/**
 * A client of an OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI, a local
 * whisper server). Asks for `verbose_json` so segments keep their timestamps; a server that
 * answers plain `{text}` still works, its text dated from 0:00.
 */
export function openAiTranscriber(options: { baseUrl: string; apiKey?: string; model: string }): Transcriber {
  return {
    async transcribe(filePath, signal) {
      const form = new FormData();
      form.append('file', await fs.openAsBlob(filePath, { type: 'video/mp4' }), path.basename(filePath));
      form.append('model', options.model);
      form.append('response_format', 'verbose_json');
      const timeout = AbortSignal.timeout(TRANSCRIPTION_TIMEOUT_MS);
      const response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`, {
        method: 'POST', body: form,
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!response.ok) throw new Error(`transcription provider answered ${response.status}`);
      const parsed = TranscriptionSchema.parse(await response.json());
      if (parsed.segments?.length) {
        return parsed.segments.map((segment) => ({ text: segment.text.trim(), startSeconds: segment.start, endSeconds: segment.end }))
          .filter((unit) => unit.text);
      }
      // Without segments the transcript is dated from the start: every video passage carries a time (its citation's timestampSec).
      return parsed.text.trim() ? [{ text: parsed.text.trim(), startSeconds: 0 }] : [];
    },
  };
}
