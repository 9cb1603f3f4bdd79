import { EmbedCheckSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

// Issue 40: the owner sees where the widget was loaded and which origins were refused, without
// the visitor's browser console.
let ctx: TestContext;
let other: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  other = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
  await other?.close();
});

async function embedCheck(id: string) {
  const res = await ctx.api.get(`/v1/chatbot/${id}/embed-check`);
  expect(res.status).toBe(200);
  return EmbedCheckSchema.parse(res.body);
}

describe('GET /v1/chatbot/{id}/embed-check', () => {
  it('lists the sites that loaded the widget and the origins the allowed domains refused', async () => {
    const created = await ctx.api.post('/v1/chatbot').send({ name: 'Bakery', websiteIntegration: { allowedDomains: ['*.crumb.example'] } });
    const { id } = created.body as { id: string };
    expect(await embedCheck(id)).toEqual({ loaded: [], refused: [] });
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', 'https://shop.crumb.example')).status).toBe(200);
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', 'https://crumb-bakery.example')).status).toBe(403);
    expect((await ctx.anonymous.post(`/v1/embed/${id}/chat`).set('Origin', 'http://typo.example:8080').send({})).status).toBe(403);
    // The service's own chat link is not a site of the owner's.
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', ctx.url)).status).toBe(200);
    await expect.poll(async () => (await embedCheck(id)).refused.length).toBe(2);
    const check = await embedCheck(id);
    expect(check.loaded.map((seen) => seen.origin)).toEqual(['https://shop.crumb.example']);
    expect(check.refused.map((seen) => seen.origin).sort()).toEqual(['http://typo.example:8080', 'https://crumb-bakery.example']);
    expect(check.loaded[0]!.lastSeenAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps the newest 20 refused origins, and is another organisation\'s 404', async () => {
    const { id } = (await ctx.api.post('/v1/chatbot').send({ name: 'Busy', websiteIntegration: { allowedDomains: ['crumb.example'] } })).body as { id: string };
    for (let i = 0; i < 25; i++) {
      expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', `https://spam${i}.example`)).status).toBe(403);
    }
    await expect.poll(async () => (await embedCheck(id)).refused.some((seen) => seen.origin === 'https://spam24.example')).toBe(true);
    expect((await embedCheck(id)).refused.length).toBeLessThanOrEqual(20);
    expect((await other.api.get(`/v1/chatbot/${id}/embed-check`)).status).toBe(404);
  });
});
