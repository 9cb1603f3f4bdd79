#!/usr/bin/env node
// `npm test`: every runner of the repository, then one closing line "N passed, M failed".
// Node tests (vitest: shared, server unit, server integration on PGlite and on PostgreSQL),
// the widget's component tests in Chromium (@web/test-runner), the widget size budget, and the
// e2e journeys (Playwright). Prerequisites beyond npm are checked first and, as root, installed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, '.tmp', 'test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const totals = { passed: 0, failed: 0 };
const crashed = [];

function run(command, args, env = {}) {
  process.stdout.write(`\n$ ${command} ${args.join(' ')}\n`);
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
}

function hasScript(workspace, script) {
  return Boolean(readJson(path.join(root, workspace, 'package.json'))?.scripts?.[script]);
}

// 1. Prerequisites: Chromium, pgvector, espeak-ng, ffmpeg and nginx from Debian, the PostgreSQL server at 127.0.0.1.
const needsSystem = ['/usr/bin/chromium', '/usr/share/postgresql/15/extension/vector.control', '/usr/bin/espeak-ng', '/usr/bin/ffmpeg', '/usr/sbin/nginx']
  .some((file) => !fs.existsSync(file));
if (needsSystem) {
  if (process.getuid?.() === 0) run('bash', ['.ci/prepare-system.sh']);
  else {
    process.stderr.write('npm test needs Debian\'s chromium, espeak-ng, ffmpeg, nginx and pgvector for PostgreSQL 15: run `sudo bash .ci/prepare-system.sh` once.\n');
    process.exit(1);
  }
}
if (run('node', ['scripts/check-postgres.mjs']) !== 0) process.exit(1);

// 2. Static checks, each counted as one test.
const steps = [];
for (const script of ['typecheck', 'lint']) {
  const ok = run('npm', ['run', '-s', script]) === 0;
  steps.push(`${ok ? 'passed' : 'FAILED'}: ${script}`);
  if (ok) totals.passed++;
  else totals.failed++;
}

// 3. Node-side tests. The server serves the built widget and console (the chat link page, `/`), so
// a fresh clone builds them first.
if (run('node', ['scripts/build.mjs', '--if-stale']) !== 0) crashed.push('build');
const vitestJson = path.join(results, 'vitest.json');
const vitestStatus = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  if (vitestStatus !== 0 && vitest.numFailedTests === 0) crashed.push('vitest (a file failed to load)');
} else crashed.push('vitest');

// 4. Widget: build, size budget, component tests in Chromium.
if (hasScript('widget', 'build')) {
  if (run('npm', ['run', '-s', 'build', '-w', '@parley/widget']) !== 0) crashed.push('widget build');
  if (fs.existsSync(path.join(root, 'widget/scripts/check-size.mjs'))) {
    const ok = run('node', ['widget/scripts/check-size.mjs']) === 0;
    steps.push(`${ok ? 'passed' : 'FAILED'}: widget size budget`);
    if (ok) totals.passed++;
    else totals.failed++;
  }
}
// The owner console: build and initial-load budget (its journeys run with the e2e suite).
if (fs.existsSync(path.join(root, 'console/scripts/check-size.mjs'))) {
  const ok = run('node', ['console/scripts/check-size.mjs']) === 0;
  steps.push(`${ok ? 'passed' : 'FAILED'}: console size budget`);
  if (ok) totals.passed++;
  else totals.failed++;
}
if (hasScript('widget', 'test')) {
  const junit = path.join(root, 'widget/test-results/junit.xml');
  fs.rmSync(junit, { force: true });
  const status = run('npm', ['run', '-s', 'test', '-w', '@parley/widget']);
  const xml = fs.existsSync(junit) ? fs.readFileSync(junit, 'utf8') : undefined;
  if (xml) {
    let tests = 0, failures = 0;
    for (const match of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
      const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(match[1])?.[1] ?? 0);
      tests += attr('tests') - attr('skipped');
      failures += attr('failures') + attr('errors');
    }
    totals.passed += tests - failures;
    totals.failed += failures;
    if (status !== 0 && failures === 0) crashed.push('widget tests');
  } else crashed.push('widget tests');
}

// The local engine's answers on the visitor-questions development set, against the committed
// figures (server/bench/visitor-baseline.json): one test, left out when the set is not beside the repository.
{
  const status = run('node', ['scripts/check-answer-quality.mjs']);
  if (status === 2) steps.push('skipped: answer quality (no visitor-questions set beside the repository)');
  else {
    steps.push(`${status === 0 ? 'passed' : 'FAILED'}: answer quality against the committed figures`);
    if (status === 0) totals.passed++;
    else totals.failed++;
  }
}

// The production install (docs/deployment.md) on a clean copy of the committed tree: one test.
{
  const ok = run('node', ['scripts/check-production-install.mjs']) === 0;
  steps.push(`${ok ? 'passed' : 'FAILED'}: production install (npm ci --omit=dev && npm start)`);
  if (ok) totals.passed++;
  else totals.failed++;
}

// 5. End-to-end journeys in Chromium against the real server.
if (hasScript('e2e', 'test')) {
  const report = path.join(root, 'e2e/test-results/results.json');
  fs.rmSync(report, { force: true });
  const status = run('npm', ['run', '-s', 'test', '-w', '@parley/e2e']);
  const stats = readJson(report)?.stats;
  if (stats) {
    totals.passed += stats.expected + (stats.flaky ?? 0);
    totals.failed += stats.unexpected;
    if (status !== 0 && stats.unexpected === 0) crashed.push('e2e');
  } else crashed.push('e2e');
}

for (const step of steps) process.stdout.write(`${step}\n`);
for (const name of crashed) process.stdout.write(`runner did not complete: ${name}\n`);
totals.failed += crashed.length;
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(totals.failed > 0 ? 1 : 0);
