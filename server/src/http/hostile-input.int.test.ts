import { ALL_ROUTES } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { rawRequest, type RawResponse } from '../test/raw-http.js';

// The classes of 500 found by the hostile-input review (issue 14): each is answered 400 now.
let ctx: TestContext;
let chatbotId: string;
beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Target' }).expect(201)).body.id;
});
afterAll(async () => { await ctx?.close(); });

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) =>
  rawRequest(ctx.url, { method, path, headers: { 'x-api-key': ctx.org.apiKey, ...headers }, body });
const json = (method: string, path: string, body: unknown) =>
  send(method, path, { 'content-type': 'application/json' }, JSON.stringify(body));

function expectBadRequest(res: RawResponse, message?: RegExp) {
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(Array) });
  if (message) expect((res.json as { message: string[] }).message.join('\n')).toMatch(message);
}

describe('malformed percent-encoding in a path id', () => {
  const withParams = ALL_ROUTES.filter((route) => route.params);
  for (const route of withParams) {
    for (const bad of ['%', '%zz', '%ff%fe', '%E0%A4%A']) {
      it(`${route.method.toUpperCase()} ${route.path} with ${bad} is the route's 400`, async () => {
        const res = await send(route.method.toUpperCase(), route.path.replace(/\{\w+\}/, bad));
        expectBadRequest(res, /(id|chatbotId) must be a 24-character lower-case hex id|token must be an invitation token|token must be a password reset token/);
      });
    }
  }

  it('is a 400 on the embed preflight and on the chat page too', async () => {
    expectBadRequest(await send('OPTIONS', '/v1/embed/%zz/chat-stream', { origin: 'https://example.com' }), /chatbotId/);
    expectBadRequest(await send('GET', '/chat/%ff%fe'), /percent-encoding/);
  });
});

describe('NUL characters in string fields', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['POST', '/v1/chatbot', { name: 'a\0b' }, /^name must not contain NUL/],
    ['POST', '/v1/chatbot', { name: 'x', welcomeMessage: '\0' }, /^welcomeMessage must not contain NUL/],
    ['POST', '/v1/chatbot', { name: 'x', tags: ['ok', 'b\0'] }, /^tags\[1\] must not contain NUL/],
    ['POST', '/v1/chatbot', { name: 'x', websiteIntegration: { bubblePopupMessages: ['\0'] } }, /websiteIntegration\.bubblePopupMessages\[0\]/],
    ['POST', '/v1/resource/text', { name: 'n\0', content: 'c' }, /^name must not contain NUL/],
    ['POST', '/v1/resource/text', { name: 'n', content: 'c\0' }, /^content must not contain NUL/],
    ['POST', '/v1/resource/website', { url: 'https://example.com', settings: { userAgent: 'ua\0' } }, /^settings\.userAgent/],
    ['POST', '/v1/conversation', { chatbotId: 'CHATBOT', messages: [{ text: '\0', fromUser: true }] }, /^messages\[0\]\.text/],
    ['POST', '/v1/embed/CHATBOT/conversation', { messages: [{ text: 'hi\0', fromUser: true }] }, /^messages\[0\]\.text/],
    ['POST', '/v1/embed/CHATBOT/leads', { name: '\0', email: 'a@example.com' }, /^name must not contain NUL/],
    ['POST', '/v1/chatbot', { 'na\0me': 'x' }, /NUL/],
  ];
  for (const [method, path, body, message] of cases) {
    it(`${method} ${path} ${JSON.stringify(body)} is a 400 naming the field`, async () => {
      const fill = (text: string) => text.replaceAll('CHATBOT', chatbotId);
      expectBadRequest(await json(method, fill(path), JSON.parse(fill(JSON.stringify(body)))), message);
    });
  }

  it('is refused in the chatbot update body and in query strings', async () => {
    expectBadRequest(await json('PUT', `/v1/chatbot/${chatbotId}`, { name: 'x', tags: ['\0'] }), /^tags\[0\]/);
    expectBadRequest(await send('GET', `/v1/conversation/${chatbotId}?sources=%00`), /^sources must not contain NUL/);
    expectBadRequest(await send('GET', `/v1/chatbot/${'a'.repeat(23)}%00`), /^id must not contain NUL/);
  });
});

function multipart(parts: string[], boundary = 'xx'): [Record<string, string>, Buffer] {
  const body = Buffer.from(parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('') + `--${boundary}--\r\n`, 'latin1');
  return [{ 'content-type': `multipart/form-data; boundary=${boundary}` }, body];
}
const filePart = (filename: string, content = '%PDF-1.4 tiny') =>
  `Content-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n${content}`;

describe('multipart edge cases on POST /v1/resource/file', () => {
  const upload = (headers: Record<string, string>, body: Buffer | string) => send('POST', '/v1/resource/file', headers, body);

  it('answers 400 naming what was wrong for every broken body', async () => {
    expectBadRequest(await upload({ 'content-type': 'multipart/form-data; boundary=xx' }, ''), /ended before its closing boundary/);
    expectBadRequest(await upload({ 'content-type': 'multipart/form-data; boundary=xx' }, '--xx--\r\n'), /file is required/);
    expectBadRequest(await upload({ 'content-type': 'multipart/form-data' }, 'garbage'), /boundary/);
    expectBadRequest(await upload({ 'content-type': 'multipart/mixed; boundary=xx' }, '--xx--\r\n'), /multipart\/form-data/);
    expectBadRequest(await upload({ 'content-type': 'multipart/form-data; boundary=xx' }, `--xx\r\n${filePart('a.pdf')}`), /ended before/);
    expectBadRequest(await upload({ 'content-type': 'multipart/form-data; boundary=xx' }, '--xx\r\nno header here\r\n\r\nx\r\n--xx--\r\n'), /malformed header|file is required/);
    expectBadRequest(await upload(...multipart(['Content-Disposition: form-data; name="file"\r\n\r\n%PDF-1.4'])), /^file must be a file part/);
    expectBadRequest(await upload(...multipart(['Content-Disposition: form-data; name="tags"\r\n\r\na\0b', filePart('a.pdf')])), /^tags must not contain NUL/);
    expectBadRequest(await upload(...multipart([filePart('a\0b.pdf')])), /malformed header/);
    const encodedName = 'Content-Disposition: form-data; name="file"; filename*=utf-8\'\'a%00b.pdf\r\n\r\n%PDF-1.4 tiny';
    expectBadRequest(await upload(...multipart([encodedName])), /file name must not contain NUL/);
  });

  it('keeps only the last segment of a traversal file name as a label, never as a path', async () => {
    for (const name of ['../../../etc/passwd.pdf', '..\\..\\evil.pdf']) {
      const res = await upload(...multipart([filePart(name)]));
      expect(res.status).toBe(201);
      expect((res.json as { fileName: string }).fileName).not.toMatch(/\.\.[/\\]/);
    }
  });

  it('answers 400 for a file part alone on the avatar route when it is not an image', async () => {
    expectBadRequest(await send('PUT', `/v1/chatbot/avatar/${chatbotId}`, ...multipart(['Content-Disposition: form-data; name="file"\r\n\r\nx'])));
  });
});

describe('random bytes as bodies and query strings', () => {
  // A fixed byte pattern with every octet, including invalid UTF-8 and NUL.
  const bytes = Buffer.from(Array.from({ length: 512 }, (_, index) => (index * 167 + 13) % 256));
  const query = [...bytes.subarray(0, 96)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  const targets: [string, string][] = [
    ['GET', '/chat/CHATBOT'], ['GET', '/v1/conversation/CHATBOT'], ['GET', '/v1/lead/CHATBOT'],
    ['POST', '/v1/embed/CHATBOT/leads'], ['POST', '/v1/embed/CHATBOT/conversation'], ['PUT', '/v1/chatbot/CHATBOT'],
    ['OPTIONS', '/v1/embed/CHATBOT/chat-stream'],
  ];
  for (const [method, template] of targets) {
    it(`${method} ${template} answers 4xx, not 500`, async () => {
      const path = template.replace('CHATBOT', chatbotId);
      for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16']) {
        const res = await send(method, `${path}?${query}&${query.slice(0, 30)}=x`, { 'content-type': contentType }, method === 'GET' ? undefined : bytes);
        expect(res.status, `${contentType}: ${res.body.toString('utf8').slice(0, 200)}`).toBeLessThan(500);
      }
    });
  }
});
