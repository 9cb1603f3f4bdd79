#!/usr/bin/env node
// The production install as docs/deployment.md gives it, on a clean copy of the committed tree:
// `npm ci --omit=dev`, then `npm start` (which builds what is stale and starts), until /health
// answers. Exits non-zero with the reason otherwise. Uses the npm registry; uncommitted changes
// are not part of the copy.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-production-'));
const copy = path.join(work, 'parley');
const fail = (message) => { process.stderr.write(`production install: ${message}\n`); cleanUp(); process.exit(1); };
function cleanUp() { fs.rmSync(work, { recursive: true, force: true }); }

const step = (command, args, options = {}) => {
  const result = spawnSync(command, args, { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
};
step('git', ['clone', '--quiet', '--depth', '1', `file://${root}`, copy], { cwd: work });
step('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund']);
if (fs.existsSync(path.join(copy, 'node_modules', 'vitest'))) fail('npm ci --omit=dev installed a dev dependency (vitest)');

const server = spawn('npm', ['start'], {
  cwd: copy, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'pipe'], detached: true,
});
let output = '';
server.stdout.on('data', (chunk) => { output += chunk; });
server.stderr.on('data', (chunk) => { output += chunk; });
const stop = () => { try { process.kill(-server.pid, 'SIGTERM'); } catch { /* gone */ } };
const deadline = Date.now() + 180_000;
let url;
while (!url && Date.now() < deadline) {
  url = /Parley is running at (http:\/\/\S+)/.exec(output)?.[1];
  if (server.exitCode !== null) { stop(); fail(`npm start exited:\n${output}`); }
  if (!url) await new Promise((resolve) => setTimeout(resolve, 250));
}
if (!url) { stop(); fail(`npm start did not print its address in 180 s:\n${output}`); }
const health = await fetch(`${url}/health`).then((res) => res.status, (err) => String(err));
stop();
if (health !== 200) fail(`GET /health answered ${health}`);
process.stdout.write(`production install: npm ci --omit=dev and npm start serve ${url}/health\n`);
cleanUp();
