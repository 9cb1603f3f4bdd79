import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startS3Server, type S3TestServer } from '../test/s3-server.js';
import { createFileStore } from './create-file-store.js';
import type { FileStore } from './file-store.js';

let s3: S3TestServer;
let dataDir: string;
const stores: Record<'local' | 's3', () => FileStore> = {
  local: () => createFileStore(loadConfig({ DATA_DIR: dataDir })),
  s3: () => createFileStore(loadConfig({ DATA_DIR: dataDir, ...s3.env })),
};

beforeAll(async () => {
  s3 = await startS3Server();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-files-'));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Writes a staged upload of `bytes` random bytes into `directory`. */
function stage(directory: string, bytes: number): { path: string; data: Buffer } {
  fs.mkdirSync(directory, { recursive: true });
  const data = randomBytes(bytes);
  const file = path.join(directory, `staged-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(file, data);
  return { path: file, data };
}

describe.each(['local', 's3'] as const)('FileStore (%s)', (kind) => {
  it('keeps a staged file and hands back the same bytes', async () => {
    const store = stores[kind]();
    expect(store.kind).toBe(kind);
    const staged = stage(store.stagingDirectory, 70_000);
    await store.put('org1/a.pdf', staged.path);
    const read = await store.withLocalCopy('org1/a.pdf', async (filePath) => fs.readFileSync(filePath));
    expect(read.equals(staged.data)).toBe(true);
  });

  it('removes a file, and removing an absent one is no error', async () => {
    const store = stores[kind]();
    await store.put('org1/b.pdf', stage(store.stagingDirectory, 10).path);
    await store.remove('org1/b.pdf');
    await store.remove('org1/b.pdf');
    await expect(store.withLocalCopy('org1/b.pdf', async () => 'read')).rejects.toThrow();
  });

  it('refuses a key that leaves the store', async () => {
    const store = stores[kind]();
    if (kind === 's3') return; // object keys are names, not paths
    await expect(store.put('../outside.pdf', stage(store.stagingDirectory, 10).path)).rejects.toThrow(/outside the store/);
  });
});

describe('S3FileStore', () => {
  it('uploads a file larger than a part in several parts and removes its temporary local copy', async () => {
    const store = stores.s3();
    const staged = stage(store.stagingDirectory, 20 * 1024 * 1024 + 123);
    await store.put('org2/big.mp4', staged.path);
    let copy = '';
    const same = await store.withLocalCopy('org2/big.mp4', async (filePath) => {
      copy = filePath;
      return fs.readFileSync(filePath).equals(staged.data);
    });
    expect(same).toBe(true);
    expect(fs.existsSync(copy)).toBe(false);
  });
});

describe('LocalFileStore', () => {
  // /dev/shm is its own file system (tmpfs) on Linux: a rename from there fails with EXDEV.
  it.skipIf(!fs.existsSync('/dev/shm'))('keeps a file staged on another volume (no EXDEV failure)', async () => {
    const store = stores.local();
    const elsewhere = fs.mkdtempSync('/dev/shm/parley-staging-');
    try {
      const staged = stage(elsewhere, 5_000);
      await store.put('org3/c.pdf', staged.path);
      expect(await store.withLocalCopy('org3/c.pdf', async (filePath) => fs.readFileSync(filePath).equals(staged.data))).toBe(true);
      expect(fs.readdirSync(path.join(dataDir, 'files', 'org3'))).toEqual(['c.pdf']);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
