import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { pino } from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../http/error-handler.js';
import { consoleAssetsRoutes } from './console-assets.routes.js';

let dir: string;
const script = 'console.log("console");\n'.repeat(50);

function app(consoleDir: string) {
  const server = express();
  server.use(consoleAssetsRoutes(consoleDir, 'http://localhost:3000'));
  server.use(errorHandler(pino({ level: 'silent' })));
  return supertest(server);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-console-'));
  await fs.mkdir(path.join(dir, 'console-assets'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Parley console</title>');
  const asset = path.join(dir, 'console-assets', 'index-AbC123_x.js');
  await fs.writeFile(asset, script);
  await fs.writeFile(`${asset}.br`, brotliCompressSync(script));
  await fs.writeFile(`${asset}.gz`, gzipSync(script));
});
afterAll(async () => { await fs.rm(dir, { recursive: true, force: true }); });

describe('consoleAssetsRoutes', () => {
  it('serves the page at / and at every /console/ path, revalidated, framed by nobody, scripts from this origin only', async () => {
    for (const url of ['/', '/console', '/console/chatbots', '/console/knowledge/0123456789abcdef01234567']) {
      const res = await app(dir).get(url).expect(200);
      expect(res.text).toContain('Parley console');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // Avatars are stored with PUBLIC_URL's origin: a console opened at 127.0.0.1 still shows them.
      expect(res.headers['content-security-policy']).toContain("img-src 'self' http://localhost:3000 data: blob:");
    }
  });

  it('sends hashed files brotli- or gzip-compressed as accepted, cached for a year', async () => {
    const url = '/console-assets/index-AbC123_x.js';
    const br = await app(dir).get(url).set('accept-encoding', 'gzip, br').buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toContain('Accept-Encoding');
    const gzip = await app(dir).get(url).set('accept-encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(script);
    const plain = await app(dir).get(url).set('accept-encoding', '').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
  });

  it('answers 404 for names that are not hashed build files, and 503 while the console is not built', async () => {
    await app(dir).get('/console-assets/index-Zzzzzzzz.js').expect(404);
    await app(dir).get('/console-assets/..%2Findex.html').expect(404);
    await app(dir).get('/console-assets/notes.txt').expect(404);
    const missing = await app(path.join(dir, 'nothing-here')).get('/console/chatbots').expect(503);
    expect(missing.body.message).toEqual(['the console is not built yet: run `npm run build` (`npm start` builds it first)']);
  });
});
