#!/usr/bin/env node
// Builds what `npm start` runs: the server as plain JavaScript (esbuild bundles server/src and
// shared/src into server/dist, with source maps; dependencies stay in node_modules) and the widget
// (Vite, into widget/dist) and the owner console (Vite, into console/dist).
//   node scripts/build.mjs               build both
//   node scripts/build.mjs --if-stale    build only the parts whose sources are newer than their output
//   node scripts/build.mjs server        one part (server, widget or console)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serverBundleOptions } from './server-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const only = args.filter((arg) => !arg.startsWith('--'));

/** Newest modification time under the given files and folders (0 when none exists). */
function newestMtime(paths) {
  let newest = 0;
  const visit = (target) => {
    let stat;
    try { stat = fs.statSync(target); } catch { return; }
    if (!stat.isDirectory()) { newest = Math.max(newest, stat.mtimeMs); return; }
    for (const entry of fs.readdirSync(target)) {
      if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(target, entry));
    }
  };
  for (const target of paths) visit(path.join(root, target));
  return newest;
}

const mtimeOf = (file) => { try { return fs.statSync(path.join(root, file)).mtimeMs; } catch { return 0; } };

/** Writes a file atomically, so a server starting meanwhile never reads half of it. */
function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

const targets = {
  server: {
    sources: ['server/src', 'server/migrations', 'shared/src', 'server/package.json', 'shared/package.json', 'scripts/build.mjs', 'scripts/server-bundle.mjs'],
    output: 'server/dist/.built',
    async build() {
      const outdir = path.join(root, 'server/dist');
      const result = await build({
        absWorkingDir: root,
        // parser-child runs in its own process (untrusted files, issue 14); parser-process.ts forks it beside itself.
        entryPoints: {
          main: 'server/src/main.ts', keys: 'server/src/cli/keys.ts',
          'parser-child': 'server/src/features/resources/ingestion/sandbox/parser-child.ts',
          // The local engine's sentence encoder runs in a worker thread (sentence-encoder.ts starts it beside itself).
          'sentence-encoder-worker': 'server/src/providers/llm/local/sentence-encoder-worker.mjs',
          // Offline transcription runs in its own process (local-whisper-transcriber.ts forks it beside itself).
          'whisper-child': 'server/src/features/resources/ingestion/local-whisper/whisper-child.ts',
        },
        outdir,
        // Every output sits in server/dist itself: config.ts finds widget/dist relative to its own URL.
        chunkNames: '[name]-[hash]',
        splitting: true,
        write: false,
        ...serverBundleOptions,
      });
      const written = new Set(result.outputFiles.map((file) => file.path));
      for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
      // Chunks of earlier builds (their names carry a content hash).
      for (const entry of fs.readdirSync(outdir)) {
        const file = path.join(outdir, entry);
        if (!written.has(file) && /\.js(\.map)?$/.test(entry)) fs.rmSync(file, { force: true });
      }
      writeAtomically(path.join(outdir, '.built'), new Date().toISOString());
    },
  },
  widget: {
    sources: ['widget/src', 'widget/scripts', 'widget/vite.config.ts', 'widget/package.json', 'shared/src'],
    output: 'widget/dist/widget.js',
    async build() {
      const status = spawnSync('npm', ['run', '-s', 'build', '-w', '@parley/widget'], { cwd: root, stdio: 'inherit' }).status;
      if (status !== 0) throw new Error('the widget build failed');
    },
  },
  console: {
    sources: ['console/src', 'console/index.html', 'console/vite.config.ts', 'console/package.json', 'shared/src'],
    output: 'console/dist/index.html',
    async build() {
      const status = spawnSync('npm', ['run', '-s', 'build', '-w', '@parley/console', '--', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' }).status;
      if (status !== 0) throw new Error('the console build failed');
    },
  },
};

for (const [name, target] of Object.entries(targets)) {
  if (only.length > 0 && !only.includes(name)) continue;
  if (ifStale && mtimeOf(target.output) > newestMtime(target.sources)) continue;
  const started = performance.now();
  await target.build();
  process.stderr.write(`built ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
