#!/usr/bin/env node
// Fails when what the console loads before its first page's data grows past the budget: the
// page itself and every file index.html names (the entry script, its preloaded chunks and the
// stylesheet). Each page's own chunk loads when it is first visited and is listed for reference.
// Builds the console first (about two seconds) so the figure is never stale; --no-build skips it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 80 * 1024;
const consoleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(consoleDir, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', '-s', 'build', '--', '--logLevel', 'error'], { cwd: consoleDir, stdio: 'inherit' });
}
if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('console/dist/index.html is missing: run `npm run build`');
  process.exit(1);
}

const gzip = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initialFiles = ['index.html', ...[...html.matchAll(/(?:src|href)="\/(console-assets\/[^"]+)"/g)].map((match) => match[1])];
let initial = 0;
for (const file of initialFiles) {
  const size = gzip(file);
  initial += size;
  console.log(`  initial ${file}: ${kB(size)} gzip`);
}
console.log(`console initial load (before the first page's chunk and data): ${kB(initial)} gzip, budget ${kB(BUDGET_BYTES)}`);
const lazy = readdirSync(path.join(dist, 'console-assets')).filter((file) => file.endsWith('.js') && !initialFiles.includes(`console-assets/${file}`));
const lazyTotal = lazy.reduce((sum, file) => sum + gzip(`console-assets/${file}`), 0);
console.log(`  ${lazy.length} lazy chunks, ${kB(lazyTotal)} gzip together`);
if (initial > BUDGET_BYTES) {
  console.error(`FAIL: the console's initial load is ${kB(initial - BUDGET_BYTES)} over its budget`);
  process.exit(1);
}
console.log('console size check passed');
