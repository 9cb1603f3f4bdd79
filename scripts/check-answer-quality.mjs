#!/usr/bin/env node
// The local engine's answers as a regression check: runs the visitor-questions benchmark on its
// development set (../shared/data beside the repository, or BENCH_DATA_DIR) on PGlite and compares
// the four knowledge bases' figures with those committed in server/bench/visitor-baseline.json.
// A drop of more than 0.03 in a share the engine should keep high (or a rise in one it should keep
// low) fails. Exit 0 passed, 1 failed, 2 skipped (the data is not there).
// After a change that moves the figures on purpose: `node scripts/check-answer-quality.mjs --update`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.BENCH_DATA_DIR ?? path.join(root, '..', 'shared', 'data');
const baselineFile = path.join(root, 'server', 'bench', 'visitor-baseline.json');
const TOLERANCE = 0.03;
/** Shares that must not fall, and shares that must not rise. */
const HIGHER_IS_BETTER = ['useful', 'open_useful', 'offtopic_ok', 'other_lang_useful'];
const LOWER_IS_BETTER = ['smalltalk_refused'];

if (!fs.existsSync(path.join(dataDir, 'visitor-questions', 'dev.json'))) {
  process.stdout.write(`answer quality: skipped, no visitor-questions set in ${dataDir}\n`);
  process.exit(2);
}
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-quality-')), 'report.json');
const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/bench/run.ts', 'visitor questions'], {
  cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_DATABASE: 'pglite', BENCH_DATA_DIR: dataDir, BENCH_REPORT_JSON: report },
});
if (run.status !== 0 || !fs.existsSync(report)) {
  process.stderr.write('answer quality: the benchmark did not complete\n');
  process.exit(1);
}
const lines = JSON.parse(fs.readFileSync(report, 'utf8'));
const measured = lines.find((line) => line.label === 'local engine, all four')?.figures;
if (!measured) { process.stderr.write('answer quality: no "local engine, all four" line in the report\n'); process.exit(1); }
const figures = Object.fromEntries([...HIGHER_IS_BETTER, ...LOWER_IS_BETTER].map((key) => [key, Number(measured[key])]));

if (process.argv.includes('--update')) {
  fs.writeFileSync(baselineFile, `${JSON.stringify({ about: 'npm run bench -- "visitor questions" on PGlite: the dev set, all four knowledge bases; checked by scripts/check-answer-quality.mjs', figures }, null, 2)}\n`);
  process.stdout.write(`answer quality: baseline written: ${JSON.stringify(figures)}\n`);
  process.exit(0);
}
const baseline = JSON.parse(fs.readFileSync(baselineFile, 'utf8')).figures;
const worse = [
  ...HIGHER_IS_BETTER.filter((key) => figures[key] < baseline[key] - TOLERANCE).map((key) => `${key} ${baseline[key]} → ${figures[key]}`),
  ...LOWER_IS_BETTER.filter((key) => figures[key] > baseline[key] + TOLERANCE).map((key) => `${key} ${baseline[key]} → ${figures[key]}`),
];
process.stdout.write(`answer quality: ${JSON.stringify(figures)} against ${JSON.stringify(baseline)}\n`);
if (worse.length > 0) {
  process.stderr.write(`answer quality: worse than the committed figures by more than ${TOLERANCE}: ${worse.join('; ')}\n`);
  process.exit(1);
}
