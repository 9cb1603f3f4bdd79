import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../features/resources/ingestion/fixtures/make-pdf.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

let ctx: TestContext;

beforeAll(async () => {
  // Ordinary requests must arrive within 1 s; uploads may take a minute.
  ctx = await createTestContext({ env: { REQUEST_TIMEOUT_MS: '1000', UPLOAD_TIMEOUT_MS: '60000', RESOURCE_CREATION_RATE_LIMIT: '100' } });
});
afterAll(async () => {
  await ctx?.close();
});

/**
 * Sends `parts` of a request body one after another, `gapMs` apart, and resolves with the
 * status and the body of the answer (or 0 when the connection was closed without one).
 */
function trickle(path: string, headers: Record<string, string>, parts: Buffer[], gapMs: number): Promise<{ status: number; body: string }> {
  const { port } = new URL(ctx.url);
  return new Promise((resolve) => {
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { ...headers, 'content-length': String(total), 'x-api-key': ctx.org.apiKey } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    let index = 0;
    const next = () => {
      if (req.destroyed) return;
      const part = parts[index++];
      if (!part) return;
      req.write(part);
      setTimeout(next, gapMs);
    };
    next();
  });
}

describe('request deadlines', () => {
  it('answers 408 to an ordinary request whose body stops arriving, and closes it', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'Slow', content: 'x'.repeat(100) }));
    // Half the body now, the rest never.
    const result = await trickle('/v1/resource/text', { 'content-type': 'application/json' }, [body.subarray(0, 20), body.subarray(20, 40)], 5_000);
    expect(result.status).toBe(408);
    expect(JSON.parse(result.body)).toEqual({ statusCode: 408, message: ['the request took too long to arrive'], error: 'Request Timeout' });
  });

  it('lets a file upload take longer than an ordinary request may', async () => {
    const boundary = 'parley-slow-upload';
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      makePdf(['A slow upload arrives in pieces.']),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    // Eight pieces 250 ms apart: the whole body arrives well after the 1 s of an ordinary request.
    const pieces = Array.from({ length: 8 }, (_, i) => multipart.subarray(Math.floor((i * multipart.length) / 8), Math.floor(((i + 1) * multipart.length) / 8)));
    const result = await trickle('/v1/resource/file', { 'content-type': `multipart/form-data; boundary=${boundary}` }, pieces, 250);
    expect(result.status, result.body).toBe(201);
    expect(JSON.parse(result.body)).toMatchObject({ fileName: 'slow.pdf' });
  });
});
