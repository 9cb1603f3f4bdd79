#!/usr/bin/env node
// Fails when what a visitor downloads before the first message grows past the budget.
// That is widget.js alone: the emoji picker's chunk loads only when the picker is opened.
// Builds the widget first (about a second) so the figure is never stale; --no-build skips it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 25 * 1024;
const widgetDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(widgetDir, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', '-s', 'build', '--', '--logLevel', 'error'], { cwd: widgetDir, stdio: 'inherit' });
}

const gzip = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

if (!existsSync(path.join(dist, 'widget.js'))) {
  console.error('widget/dist/widget.js is missing: run `npm run build`');
  process.exit(1);
}
// zod (even zod/mini, about 8 kB gzip) would eat the budget: the widget checks answers against the
// shared schemas as JSON Schema made at build time (scripts/wire-schemas.ts).
if (readFileSync(path.join(dist, 'widget.js'), 'utf8').includes('ZodError')) {
  console.error('FAIL: widget.js bundles zod; import shared types with `import type` and schemas from virtual:parley-wire-schemas');
  process.exit(1);
}
const initial = gzip('widget.js');
const lazy = readdirSync(dist).filter((file) => file.endsWith('.js') && file !== 'widget.js');
const servedBrotli = readFileSync(path.join(dist, 'widget.js.br')).length;
console.log(`widget.js (loads before the first message): ${kB(initial)} gzip, budget ${kB(BUDGET_BYTES)}; served as brotli: ${kB(servedBrotli)}`);
for (const file of lazy) console.log(`  lazy chunk ${file}: ${kB(gzip(file))} gzip`);
if (initial > BUDGET_BYTES) {
  console.error(`FAIL: widget.js is ${kB(initial - BUDGET_BYTES)} over its budget`);
  process.exit(1);
}
console.log('size check passed');
