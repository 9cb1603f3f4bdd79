import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
let service: ChildProcess | undefined;

function env(extra: Record<string, string> = {}) {
  const { DATABASE_URL: _url, ...rest } = process.env;
  return { ...rest, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', ...extra };
}

function keys(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], { cwd: serverDir, env: env(), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, lastLine: result.stdout.trim().split('\n').at(-1) ?? '' };
}

/** Starts the service and resolves with its URL and everything it printed. */
function start(extra: Record<string, string> = {}): Promise<{ url: string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: env(extra) });
    service = child;
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Parley is running at (\S+)/.exec(output);
      if (match && output.includes('API reference')) setTimeout(() => resolve({ url: match[1]!, output }), 50);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${output}`)));
  });
}

async function stop() {
  if (!service || service.exitCode !== null) return;
  service.removeAllListeners('exit');
  const exited = new Promise((resolve) => service!.once('exit', resolve));
  service.kill('SIGTERM');
  await exited;
}

beforeAll(async () => { dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-cli-')); });
afterAll(async () => {
  await stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the keys CLI', () => {
  it('works beside a running service on the same embedded database', async () => {
    const bootstrapKey = 'pk_bootstrap_key_for_the_cli_test_0123456789';
    const { url, output } = await start({ BOOTSTRAP_API_KEY: bootstrapKey });
    // The operator supplied the key: it is not printed again (issue 14).
    expect(output).not.toContain(bootstrapKey);
    expect(output).toContain('BOOTSTRAP_API_KEY');
    expect((await fetch(`${url}/v1/chatbot/all`, { headers: { 'x-api-key': bootstrapKey } })).status).toBe(200);

    const created = keys('create', '--org', 'Acme');
    expect(created.status).toBe(0);
    expect(created.lastLine).toMatch(/^pk_[\w-]{43}$/);
    expect(created.stderr).toMatch(/organisation [0-9a-f]{24}/);
    const acme = { 'x-api-key': created.lastLine, 'content-type': 'application/json' };
    const list = await fetch(`${url}/v1/chatbot/all`, { headers: acme });
    expect(await list.json()).toEqual([]);

    expect(keys('plan', '--org', 'Acme', '--models', 'alpha-4o-mini').status).toBe(0);
    const refused = await fetch(`${url}/v1/chatbot`, { method: 'POST', headers: acme, body: JSON.stringify({ name: 'x', model: 'gamma-3-pro' }) });
    expect(refused.status).toBe(403);

    const listed = keys('list', '--org', 'Acme');
    const keyId = /^([0-9a-f]{24})\s/.exec(listed.stdout)?.[1];
    expect(listed.stdout).not.toContain(created.lastLine);
    expect(keys('revoke', keyId!).status).toBe(0);
    expect((await fetch(`${url}/v1/chatbot/all`, { headers: acme })).status).toBe(401);
    expect(keys('revoke', keyId!).status).toBe(1);
  }, 60_000);

  it('resets a member\'s password beside a running service, ending its sessions', async () => {
    await stop();
    const { url } = await start();
    const key = keys('create', '--org', 'Team Ltd').lastLine;
    const json = { 'content-type': 'application/json' };
    const owner = { email: 'owner@team.example', name: 'Olu', password: 'an old long passphrase' };
    expect((await fetch(`${url}/v1/member/owner`, { method: 'POST', headers: { ...json, 'x-api-key': key }, body: JSON.stringify(owner) })).status).toBe(201);
    const signIn = (password: string) => fetch(`${url}/v1/session`, { method: 'POST', headers: json, body: JSON.stringify({ email: owner.email, password }) });
    const session = await signIn(owner.password);
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;

    const reset = keys('reset-password', 'Owner@Team.example');
    expect(reset.status).toBe(0);
    expect(reset.lastLine).toMatch(/^[\w-]{20}$/);
    expect((await fetch(`${url}/v1/session`, { headers: { cookie } })).status).toBe(401);
    expect((await signIn(owner.password)).status).toBe(401);
    expect((await signIn(reset.lastLine)).status).toBe(201);
    expect(keys('reset-password', 'nobody@team.example').stderr).toContain('no member has the e-mail address nobody@team.example');
  }, 60_000);

  it('works directly on the database when no service runs, and a restart prints no new key', async () => {
    await stop();
    const created = keys('create', '--org', 'Offline Inc');
    expect(created.status).toBe(0);
    const { url, output } = await start();
    expect(output).not.toContain('Your first API key');
    expect((await fetch(`${url}/v1/chatbot/all`, { headers: { 'x-api-key': created.lastLine } })).status).toBe(200);
    expect(keys('create').status).toBe(1);
    expect(keys('list', '--org', 'Nobody').stderr).toContain('no organisation "Nobody"');
  }, 60_000);

  it('keeps everything under DATA_DIR owner-only, and tightens what an older install left open', async () => {
    await stop();
    await fs.mkdir(path.join(dataDir, 'files', 'legacy'), { recursive: true, mode: 0o755 });
    await fs.writeFile(path.join(dataDir, 'files', 'legacy', 'old.pdf'), '%PDF-1.4', { mode: 0o666 });
    await fs.chmod(path.join(dataDir, 'files', 'legacy', 'old.pdf'), 0o666);
    const key = keys('create', '--org', 'Modes Ltd').lastLine;
    const { url } = await start();
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4\n%%EOF\n']), 'notes.pdf');
    expect((await fetch(`${url}/v1/resource/file`, { method: 'POST', headers: { 'x-api-key': key }, body: form })).status).toBe(201);
    const open: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        const { mode } = await fs.lstat(full);
        if (!entry.isSymbolicLink() && (mode & 0o077) !== 0) open.push(`${path.relative(dataDir, full)} ${(mode & 0o777).toString(8)}`);
        if (entry.isDirectory()) await walk(full);
      }
    };
    await walk(dataDir);
    expect((await fs.stat(dataDir)).mode & 0o077).toBe(0);
    expect(open).toEqual([]);
    expect((await fs.readdir(path.join(dataDir, 'pgdata'))).length).toBeGreaterThan(0);
  }, 60_000);
});
