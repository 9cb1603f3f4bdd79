import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import { ingestionDedupeKey } from './ingestion-worker.js';

// Issue 14, item 2: one organisation's slow 1,000-page crawl does not stop another's ingestion,
// cannot take every job slot, and stops when its resource is deleted.
let site: FakeServer;
beforeAll(async () => {
  site = await startFakeServer((req) => ({ body: `<html><body><main><p>Page ${req.url} of a slow site.</p></main></body></html>` }));
});
afterAll(async () => { await site?.close(); });

const slowCrawl = () => ({
  url: `${site.url}/`, subLinks: Array.from({ length: 999 }, (_, index) => `${site.url}/page-${index}`),
  settings: { delayBetweenExtractionMs: 60_000 },
});
const status = async (api: TestContext['api'], id: string) => (await api.get(`/v1/resource/${id}`)).body.aiProcessingStatus as string;

describe('fair ingestion across organisations', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { JOB_CONCURRENCY: '2', RESOURCE_CREATION_RATE_LIMIT: '1000' } }); });
  afterAll(async () => { await ctx?.close(); });

  it('another organisation\'s resources progress during a slow crawl; deleting the crawl cancels it', async () => {
    const slow = await ctx.newOrganisation();
    const crawl = await createResource(slow.api, 'website', slowCrawl());
    const waiting = await createResource(slow.api, 'website', { url: `${site.url}/one-page` });
    const ownText = await createResource(slow.api, 'text', { name: 'A text of the same tenant', content: 'Indexed in the quick lane.' });
    ctx.startJobs();
    await expect.poll(() => status(slow.api, crawl.id), { timeout: 20_000 }).toBe('IN_PROGRESS');

    const other = await createResource(ctx.api, 'text', { name: 'Other tenant', content: 'Opening hours are nine to five.' });
    expect((await waitForProcessing(ctx.api, other.id, 20_000)).aiProcessingStatus).toBe('DONE');
    // A text never waits for crawls, not even its own organisation's.
    expect((await waitForProcessing(slow.api, ownText.id, 20_000)).aiProcessingStatus).toBe('DONE');
    // Work-conserving: nobody else waits for a slot, so the slow tenant's second website does not wait for its crawl.
    expect((await waitForProcessing(slow.api, waiting.id, 20_000)).aiProcessingStatus).toBe('DONE');
    expect(await status(slow.api, crawl.id)).toBe('IN_PROGRESS');

    const fetchedBefore = site.requests.filter((request) => request.path !== '/one-page' && !request.path.startsWith('/robots.txt') && !request.path.startsWith('/sitemap')).length;
    expect((await slow.api.delete(`/v1/resource/${crawl.id}`)).status).toBe(200);
    expect(await ctx.services.jobs.isPending(ingestionDedupeKey(crawl.id))).toBe(false);
    // The cancelled crawl fetches nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(site.requests.filter((request) => request.path !== '/one-page' && !request.path.startsWith('/robots.txt') && !request.path.startsWith('/sitemap')).length).toBe(fetchedBefore);
  }, 60_000);
});

describe('a crawl\'s total time', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { CRAWL_MAX_DURATION_MS: '1500' } }); });
  afterAll(async () => { await ctx?.close(); });

  it('is bounded: the crawl stops at CRAWL_MAX_DURATION_MS and keeps the pages read so far', async () => {
    const crawl = await createResource(ctx.api, 'website', slowCrawl());
    ctx.startJobs();
    const done = await waitForProcessing(ctx.api, crawl.id, 30_000);
    expect(done.aiProcessingStatus).toBe('DONE');
    const passages = await ctx.api.get(`/v1/resource/${crawl.id}/passages`);
    expect(JSON.stringify(passages.body)).toContain('Page / of a slow site');
  }, 60_000);
});
