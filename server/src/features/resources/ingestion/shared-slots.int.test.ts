import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import { makePdf } from './fixtures/make-pdf.js';
import { ingestionDedupeKey } from './ingestion-worker.js';

// Issue 38, item 3: the job slots are shared work-conservingly. A tenant alone uses every slot;
// when another tenant comes, a long crawl yields between two pages (losing nothing); with two
// tenants each running a long crawl, a third tenant's text is DONE while both still run; deleting
// a running crawl stops it and frees its slot.
const PAGE_MS = 250;
const PAGES = 400;

let site: FakeServer;
beforeAll(async () => {
  // A site that answers slowly: each page takes PAGE_MS, so a crawl of PAGES pages runs for minutes.
  site = await startFakeServer(async (req) => {
    if (req.url?.startsWith('/slow/')) await new Promise((resolve) => setTimeout(resolve, PAGE_MS));
    if (req.url === '/robots.txt') return { status: 404 };
    return { type: 'text/html', body: `<html><body><main><p>Page ${req.url} of a site that takes its time.</p></main></body></html>` };
  });
});
afterAll(async () => { await site?.close(); });

const slowCrawl = (name: string) => ({
  url: `${site.url}/slow/${name}/0`, subLinks: Array.from({ length: PAGES - 1 }, (_, index) => `${site.url}/slow/${name}/${index + 1}`),
});
const pagesOf = (name: string) => site.requests.filter((request) => request.path.startsWith(`/slow/${name}/`)).map((request) => request.path);
const status = async (api: TestContext['api'], id: string) => (await api.get(`/v1/resource/${id}`)).body.aiProcessingStatus as string;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job slots shared between tenants', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { JOB_CONCURRENCY: '2', RESOURCE_CREATION_RATE_LIMIT: '1000' } });
    ctx.startJobs();
  });
  afterAll(async () => { await ctx?.close(); });

  it('a tenant alone uses both slots, yields one to a tenant that comes, then goes on without fetching a page twice', async () => {
    const alone = await ctx.newOrganisation();
    const first = await createResource(alone.api, 'website', slowCrawl('a1'));
    const second = await createResource(alone.api, 'website', slowCrawl('a2'));
    // Work-conserving: nobody else waits, so the tenant's second crawl does not wait for the first.
    await expect.poll(async () => [await status(alone.api, first.id), await status(alone.api, second.id)], { timeout: 20_000, interval: 100 })
      .toEqual(['IN_PROGRESS', 'IN_PROGRESS']);

    // Another tenant's website (not a quick-lane job): one of the crawls yields its slot between two pages.
    const other = await ctx.newOrganisation();
    const onePage = await createResource(other.api, 'website', { url: `${site.url}/other-tenant` });
    expect((await waitForProcessing(other.api, onePage.id, 30_000)).aiProcessingStatus).toBe('DONE');
    expect([await status(alone.api, first.id), await status(alone.api, second.id)]).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);

    // Both crawls go on where they stopped: more pages, none fetched twice (nothing restarted).
    const before = [pagesOf('a1').length, pagesOf('a2').length];
    await expect.poll(() => [pagesOf('a1').length > before[0]!, pagesOf('a2').length > before[1]!], { timeout: 20_000, interval: 200 }).toEqual([true, true]);
    for (const name of ['a1', 'a2']) expect(new Set(pagesOf(name)).size).toBe(pagesOf(name).length);

    // Deleting a running crawl stops it at once and frees its slot for the tenant's next resource.
    expect((await alone.api.delete(`/v1/resource/${first.id}`)).status).toBe(200);
    expect(await ctx.services.jobs.isPending(ingestionDedupeKey(first.id))).toBe(false);
    const stoppedAt = pagesOf('a1').length;
    const next = await createResource(alone.api, 'website', { url: `${site.url}/next-of-the-same-tenant` });
    expect((await waitForProcessing(alone.api, next.id, 30_000)).aiProcessingStatus).toBe('DONE');
    await sleep(1_000);
    // At most the page under way when it was deleted.
    expect(pagesOf('a1').length).toBeLessThanOrEqual(stoppedAt + 1);
    expect(await status(alone.api, second.id)).toBe('IN_PROGRESS');
    expect((await alone.api.delete(`/v1/resource/${second.id}`)).status).toBe(200);
  }, 120_000);

  it('a crawl yields during a long politeness wait too, not after it', async () => {
    const alone = await ctx.newOrganisation();
    const politeCrawl = (name: string) => ({ ...slowCrawl(name), settings: { delayBetweenExtractionMs: 60_000 } });
    const robots = () => site.requests.filter((request) => request.path === '/robots.txt').length;
    const robotsBefore = robots();
    const crawls = [await createResource(alone.api, 'website', politeCrawl('p1')), await createResource(alone.api, 'website', politeCrawl('p2'))];
    const statuses = async () => Promise.all(crawls.map((crawl) => status(alone.api, crawl.id)));
    await expect.poll(statuses, { timeout: 20_000, interval: 100 }).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    // Each crawl read robots.txt and now waits a minute before its first page: another tenant's website is not kept waiting that long.
    await expect.poll(() => robots() - robotsBefore, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    const other = await ctx.newOrganisation();
    const onePage = await createResource(other.api, 'website', { url: `${site.url}/during-the-wait` });
    expect((await waitForProcessing(other.api, onePage.id, 30_000)).aiProcessingStatus).toBe('DONE');
    expect(await statuses()).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    expect([pagesOf('p1').length, pagesOf('p2').length]).toEqual([0, 0]);
    for (const crawl of crawls) expect((await alone.api.delete(`/v1/resource/${crawl.id}`)).status).toBe(200);
  }, 120_000);

  it('with two tenants each running a long crawl, a third tenant\'s text, then its website, are DONE while both still run', async () => {
    const [a, b, c] = [await ctx.newOrganisation(), await ctx.newOrganisation(), await ctx.newOrganisation()];
    const crawlA = await createResource(a.api, 'website', slowCrawl('b1'));
    const crawlB = await createResource(b.api, 'website', slowCrawl('b2'));
    await expect.poll(async () => [await status(a.api, crawlA.id), await status(b.api, crawlB.id)], { timeout: 20_000, interval: 100 })
      .toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    const text = await createResource(c.api, 'text', { name: 'Timetable', content: 'The ferry leaves at noon and returns at six.' });
    expect((await waitForProcessing(c.api, text.id, 30_000)).aiProcessingStatus).toBe('DONE');
    expect([await status(a.api, crawlA.id), await status(b.api, crawlB.id)]).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    // A website is no quick-lane job: once a crawl ran its time slice, it yields its slot to the third tenant.
    const website = await createResource(c.api, 'website', { url: `${site.url}/third-tenant` });
    expect((await waitForProcessing(c.api, website.id, 30_000)).aiProcessingStatus).toBe('DONE');
    expect([await status(a.api, crawlA.id), await status(b.api, crawlB.id)]).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    for (const [api, id] of [[a.api, crawlA.id], [b.api, crawlB.id]] as const) expect((await api.delete(`/v1/resource/${id}`)).status).toBe(200);
  }, 120_000);
});

describe('job slots shared with OCR', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { JOB_CONCURRENCY: '2', RESOURCE_CREATION_RATE_LIMIT: '1000', OCR_MAX_PAGES: '2000' } }); });
  afterAll(async () => { await ctx?.close(); });

  it('a tenant alone OCRs two scans at once; one yields between two OCR pages to another tenant\'s website', async () => {
    const alone = await ctx.newOrganisation();
    // Scans without a text layer: every page goes through OCR, one page at a time.
    const upload = async (name: string) => {
      const res = await alone.api.post('/v1/resource/file').attach('file', makePdf({ imagePages: 1500 }), { filename: name, contentType: 'application/pdf' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const scans = [await upload('first-scan.pdf'), await upload('second-scan.pdf')];
    ctx.startJobs();
    const statuses = async () => Promise.all(scans.map((id) => status(alone.api, id)));
    await expect.poll(statuses, { timeout: 30_000, interval: 100 }).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    // Both are past reading the text layer: OCR, page by page (its progress is reported from the first page).
    const ocrStarted = async () => Promise.all(scans.map(async (id) => typeof (await alone.api.get(`/v1/resource/${id}`)).body.processingProgress === 'number'));
    await expect.poll(ocrStarted, { timeout: 60_000, interval: 200 }).toEqual([true, true]);
    const other = await ctx.newOrganisation();
    const onePage = await createResource(other.api, 'website', { url: `${site.url}/while-ocr-runs` });
    expect((await waitForProcessing(other.api, onePage.id, 30_000)).aiProcessingStatus).toBe('DONE');
    expect(await statuses()).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);
    for (const id of scans) expect((await alone.api.delete(`/v1/resource/${id}`)).status).toBe(200);
  }, 120_000);
});
