import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

let ctx: TestContext;
let chatbotId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Headers' }).expect(201)).body.id;
});
afterAll(async () => { await ctx?.close(); });

describe('security headers', () => {
  it('every HTML page carries a CSP with frame-ancestors and nosniff', async () => {
    const pages = ['/docs', `/chat/${chatbotId}`, `/chat/${ABSENT_ID}`, '/chat/not-an-id'];
    for (const page of pages) {
      const res = await ctx.anonymous.get(page);
      expect(res.headers['content-type'], page).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], page).toMatch(/frame-ancestors '(none|self)'/);
      expect(res.headers['content-security-policy'], page).toMatch(/default-src 'none'/);
      expect(res.headers['x-content-type-options'], page).toBe('nosniff');
    }
  });

  it('the docs page may run only its own scripts and cannot be framed', async () => {
    const csp = (await ctx.anonymous.get('/docs').expect(200)).headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('every other answer gets nosniff and a CSP that allows nothing', async () => {
    for (const path of ['/v1/openapi.json', '/health', '/nowhere', '/v1/chatbot/all']) {
      const res = await ctx.anonymous.get(path);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['content-security-policy'], path).toContain("default-src 'none'");
    }
  });
});
