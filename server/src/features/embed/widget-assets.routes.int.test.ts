import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let built: TestContext;
let unbuilt: TestContext;
let widgetDir: string;
beforeAll(async () => {
  widgetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-widget-'));
  await fs.writeFile(path.join(widgetDir, 'widget.js'), 'console.log("widget")');
  await fs.writeFile(path.join(widgetDir, 'widget.js.br'), brotliCompressSync('console.log("widget")'));
  await fs.writeFile(path.join(widgetDir, 'widget.js.gz'), gzipSync('console.log("widget")'));
  await fs.writeFile(path.join(widgetDir, 'widget-emoji.Ab3_x-9Z.js'), 'export const EMOJIS = [];');
  await fs.writeFile(path.join(widgetDir, 'secret.txt'), 'not for you');
  built = await createTestContext({ env: { WIDGET_DIR: widgetDir } });
  unbuilt = await createTestContext({ env: { WIDGET_DIR: path.join(widgetDir, 'missing') } });
});
afterAll(async () => {
  await built?.close();
  await unbuilt?.close();
  await fs.rm(widgetDir, { recursive: true, force: true });
});

describe('GET /widget.js and its chunks', () => {
  it('serves the loader with a short cache, an ETag and cross-origin headers', async () => {
    const res = await built.anonymous.get('/widget.js').set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe('console.log("widget")');
    expect(res.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600');
    expect(res.headers.etag).toBeDefined();
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect((await built.anonymous.get('/widget.js').set('Accept-Encoding', 'identity').set('If-None-Match', res.headers.etag!)).status).toBe(304);
  });

  it('sends /widget.js precompressed with brotli or gzip, whichever the browser accepts', async () => {
    const brotli = await built.anonymous.get('/widget.js').set('Accept-Encoding', 'gzip, deflate, br');
    expect([brotli.status, brotli.headers['content-encoding'], brotli.text]).toEqual([200, 'br', 'console.log("widget")']);
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    const gzip = await built.anonymous.get('/widget.js').set('Accept-Encoding', 'gzip');
    expect([gzip.headers['content-encoding'], gzip.text]).toEqual(['gzip', 'console.log("widget")']);
    // A chunk built without compressed copies is sent as it is.
    const chunk = await built.anonymous.get('/widget-emoji.Ab3_x-9Z.js').set('Accept-Encoding', 'br');
    expect([chunk.status, chunk.headers['content-encoding']]).toEqual([200, undefined]);
  });

  it('caches hashed chunks forever and serves nothing else from the directory', async () => {
    const chunk = await built.anonymous.get('/widget-emoji.Ab3_x-9Z.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // import() from a classic script sends credentials, so the origin is named rather than `*`.
    const fromSite = await built.anonymous.get('/widget-emoji.Ab3_x-9Z.js').set('Origin', 'https://shop.example');
    expect(fromSite.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(fromSite.headers['access-control-allow-credentials']).toBe('true');
    expect((await built.anonymous.get('/secret.txt')).status).toBe(404);
    expect((await built.anonymous.get('/widget.js.br')).status).toBe(404);
    const missing = await built.anonymous.get('/widget-nope.Zz9_aa12.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
  });

  it('answers 503 with a clear message while the widget is not built', async () => {
    const res = await unbuilt.anonymous.get('/widget.js');
    expect(res.status).toBe(503);
    expect(res.body.message[0]).toMatch(/not built yet.*npm run build/);
    expect(res.headers['cache-control']).toBeUndefined();
    expect((await unbuilt.anonymous.get('/widget-emoji.js')).status).toBe(503);
  });
});

describe('GET /chat/{chatbotId}', () => {
  it('serves the full-page chat with the widget in page mode and a strict CSP', async () => {
    const created = await built.api.post('/v1/chatbot').send({ name: 'Help <desk> & "co"' });
    const res = await built.anonymous.get(`/chat/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.text).toContain(`<chatbot-widget chatbot-id="${created.body.id}" mode="page"></chatbot-widget>`);
    expect(res.text).toContain('<script src="/widget.js" async></script>');
    expect(res.text).toContain('<title>Help &#60;desk&#62; &#38; &#34;co&#34;</title>');
  });

  it('answers 404 for unknown or malformed ids and 403 for PROTECTED chatbots', async () => {
    expect((await built.anonymous.get(`/chat/${ABSENT_ID}`)).status).toBe(404);
    expect((await built.anonymous.get('/chat/not-an-id')).status).toBe(404);
    const created = await built.api.post('/v1/chatbot').send({ name: 'Internal', accessLevel: 'PROTECTED' });
    expect((await built.anonymous.get(`/chat/${created.body.id}`)).status).toBe(403);
  });

  it('answers 503 while the widget is not built', async () => {
    const created = await unbuilt.api.post('/v1/chatbot').send({ name: 'Early' });
    const res = await unbuilt.anonymous.get(`/chat/${created.body.id}`);
    expect(res.status).toBe(503);
    expect(res.text).toContain('npm run build');
  });
});
