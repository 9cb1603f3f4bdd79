import { ResourceSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import { INGEST_RESOURCE_JOB } from './ingestion-worker.js';

// Issue 40, item 2: a website's settings can be changed after creation; a change of what is
// crawled re-crawls it under the same id.
let ctx: TestContext;
let other: TestContext;
let site: FakeServer;
const pages: Record<string, string> = {
  '/': '<html><body><main><h1>Crumb bakery</h1><p>We bake sourdough bread every morning.</p><a href="/cakes">Cakes</a></main></body></html>',
  '/cakes': '<html><body><main><h1>Cakes</h1><p>Our carrot cake has walnuts and cream cheese icing.</p><div class="promo">Win a free cake today</div></main></body></html>',
};

beforeAll(async () => {
  site = await startFakeServer(async (req) => {
    const body = pages[req.url ?? ''];
    return body === undefined ? { status: 404, body: 'missing' } : { body };
  });
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  other = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
  await other?.close();
  await site?.close();
});

const passageText = async (id: string) => (await ctx.api.get(`/v1/resource/${id}/passages`)).body.passages.map((p: { text: string }) => p.text).join('\n');

describe('PUT /v1/resource/website/{id}', () => {
  it('reads back the settings, and a settings change re-crawls under the same id', async () => {
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/`, tags: ['shop'] });
    const first = await waitForProcessing(ctx.api, created.id);
    expect(first.aiProcessingStatus).toBe('DONE');
    expect(await passageText(created.id)).not.toContain('carrot cake');

    const settings = await ctx.api.get(`/v1/resource/website/${created.id}`);
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({ id: created.id, url: `${site.url}/`, subLinks: [], syncFrequency: 'NEVER', settings: {}, tags: ['shop'] });

    const res = await ctx.api.put(`/v1/resource/website/${created.id}`)
      .send({ settings: { discovery: 'LINKS', maxPages: 5, removeSelectors: ['.promo'] }, syncFrequency: 'SEVEN_DAYS' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ResourceSchema.parse(res.body)).toMatchObject({ id: created.id, aiProcessingStatus: 'NOT_STARTED', syncFrequencyMs: 7 * 24 * 3600 * 1000 });
    const second = await waitForProcessing(ctx.api, created.id);
    expect(second.aiProcessingStatus).toBe('DONE');
    expect(second.lastSync).toBeGreaterThanOrEqual(first.lastSync!);
    const text = await passageText(created.id);
    expect(text).toContain('carrot cake has walnuts');
    expect(text).not.toContain('Win a free cake');
    expect(second.website?.subLinks).toEqual([`${site.url}/cakes`]);
    expect((await ctx.api.get(`/v1/resource/website/${created.id}`)).body).toMatchObject({
      syncFrequency: 'SEVEN_DAYS', settings: { discovery: 'LINKS', maxPages: 5, removeSelectors: ['.promo'] },
    });
  });

  it('a change of tags or schedule alone does not re-crawl', async () => {
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/cakes` });
    await waitForProcessing(ctx.api, created.id);
    const res = await ctx.api.put(`/v1/resource/website/${created.id}`).send({ tags: ['cakes'], syncFrequency: 'ONE_DAY', url: `${site.url}/cakes` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ aiProcessingStatus: 'DONE', tags: ['cakes'], syncFrequencyMs: 24 * 3600 * 1000 });
    expect(await ctx.services.jobs.pendingCount([INGEST_RESOURCE_JOB])).toBe(0);
  });

  it('400 for bad bodies and other types, 404 for another organisation\'s website', async () => {
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/` });
    const put = (body: unknown, id = created.id) => ctx.api.put(`/v1/resource/website/${id}`).send(body as object);
    expect((await put({})).status).toBe(400);
    expect((await put({ url: 'ftp://example.com' })).body.message.join(' ')).toMatch(/url must be an http or https URL/);
    expect((await put({ settings: { removeSelectors: ['p[[['] } })).body.message.join(' ')).toMatch(/valid CSS selector/);
    expect((await put({ settings: { maxPages: 5 } })).status).toBe(400);
    expect((await put({ name: 'x' })).status).toBe(400);
    const text = await createResource(ctx.api, 'text', { name: 'Notes', content: 'Hello there.' });
    expect((await put({ tags: [] }, text.id)).body.message.join(' ')).toMatch(/is a TEXT resource; only WEB resources/);
    expect((await other.api.put(`/v1/resource/website/${created.id}`).send({ tags: [] })).status).toBe(404);
    expect((await other.api.get(`/v1/resource/website/${created.id}`)).status).toBe(404);
  });
});
