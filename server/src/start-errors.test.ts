import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');

describe('starting the service', () => {
  it('says plainly that the port is taken, and exits 1, instead of logging a crash', async () => {
    const taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-port-'));
    try {
      const { DATABASE_URL: _url, ...env } = process.env;
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir, env: { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 60_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`Parley cannot listen on port ${port}: the port is already in use`);
      expect(result.stderr).toContain('PORT=3001 npm start');
      expect(result.stdout + result.stderr).not.toContain('the service crashed');
    } finally {
      taken.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
