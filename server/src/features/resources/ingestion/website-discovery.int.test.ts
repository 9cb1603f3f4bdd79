import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import type { CrawlClock } from './stages/polite-fetcher.js';

// Issue 13, item 4: a 30-page site (the home page and pages 1–29) behind robots.txt with a
// Crawl-delay, a sitemap index, a disallowed and an excluded page. Page i links to pages 3i+1..3i+3,
// so breadth-first depths are 1: pages 1–3, 2: pages 4–12, 3: pages 13–29.
const CRAWL_DELAY_S = 2;
const LAST_PAGE = 29;
const pagePath = (i: number) => (i === 0 ? '/' : `/docs/page-${i}`);
const children = (i: number) => [3 * i + 1, 3 * i + 2, 3 * i + 3].filter((child) => child <= LAST_PAGE);

/** Virtual time: sleeping advances it at once, and every wait the crawler asks for is recorded. */
const clock = { time: 1_000_000, sleeps: [] as number[] };
const crawlClock: CrawlClock = {
  now: () => clock.time,
  sleep: async (ms) => { clock.sleeps.push(ms); clock.time += ms; },
};

let ctx: TestContext;
let site: FakeServer;
/** Each request the site answered: path, status and the virtual time it arrived at. */
let served: { path: string; status: number; at: number }[] = [];
const texts = new Map<number, string>();
const gone = new Set<number>();

function pageHtml(i: number): string {
  const links = [...children(i).map(pagePath), '/', 'mailto:owner@example.com', '/files/price-list.pdf', 'https://elsewhere.example/'];
  if (i === 0) links.push('/archive/2019', '/private/staff');
  return `<!doctype html><html><head><title>Page ${i}</title></head><body>
    <nav>${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</nav>
    <main><h1>Page ${i}</h1><p>${texts.get(i) ?? `Page ${i} explains how teapot model ${i} is glazed and fired.`}</p></main></body></html>`;
}

function sitemap(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((url) => `<url><loc>${url}</loc></url>`).join('')}</urlset>`;
}

function answer(path: string): { status?: number; type?: string; body?: string | Buffer; headers?: Record<string, string> } {
  if (path === '/robots.txt') {
    return { type: 'text/plain', body: `User-agent: *\nDisallow: /private\nCrawl-delay: ${CRAWL_DELAY_S}\n\nSitemap: ${site.url}/sitemap-index.xml\n` };
  }
  if (path === '/sitemap-index.xml') {
    return { type: 'application/xml', body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url}/sitemaps/docs.xml.gz</loc></sitemap></sitemapindex>` };
  }
  if (path === '/sitemaps/docs.xml.gz') {
    const urls = ['/archive/2019', '/private/staff', ...Array.from({ length: LAST_PAGE }, (_, i) => pagePath(i + 1))].map((p) => `${site.url}${p}`);
    return { type: 'application/gzip', body: gzipSync(sitemap([...urls, 'https://elsewhere.example/page'])) };
  }
  const index = path === '/' ? 0 : Number(/^\/docs\/page-(\d+)$/.exec(path)?.[1] ?? Number.NaN);
  if (path === '/archive/2019') return { body: '<main><p>The 2019 catalogue of teapots, archived.</p></main>' };
  if (path === '/private/staff') return { body: '<main><p>Staff rota, not for crawlers.</p></main>' };
  if (!(index >= 0 && index <= LAST_PAGE) || gone.has(index)) return { status: 404, body: 'not found' };
  return { body: pageHtml(index) };
}

beforeAll(async () => {
  site = await startFakeServer((req) => {
    const response = answer(req.url ?? '/');
    const body = response.body ?? '';
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const notModified = (response.status ?? 200) === 200 && req.headers['if-none-match'] === etag;
    served.push({ path: req.url ?? '/', status: notModified ? 304 : response.status ?? 200, at: clock.time });
    if (notModified) return { status: 304, headers: { etag } };
    return { ...response, headers: { etag } };
  });
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' }, services: { crawlClock } });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
  await site?.close();
});
beforeEach(() => {
  served = [];
  clock.sleeps = [];
  texts.clear();
  gone.clear();
});

const url = (i: number) => `${site.url}${pagePath(i)}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const pageRequests = () => served.filter((request) => request.path === '/' || request.path.startsWith('/docs/'));

async function chunksOf(resourceId: string) {
  return ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('ordinal').select('id', 'content', 'provenance');
}

describe('whole-site discovery', () => {
  it('finds pages through the sitemap index named by robots.txt, within excludePaths, robots.txt and the Crawl-delay', async () => {
    const created = await createResource(ctx.api, 'website', { url: url(0), settings: { discovery: 'SITEMAP', excludePaths: ['/archive/**'] } });
    // Until the first crawl ends, subLinks are the given ones.
    expect(created.website).toEqual({ url: url(0), subLinks: [] });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource.aiProcessingStatus).toBe('DONE');
    expect(resource.website).toEqual({ url: url(0), subLinks: range(1, LAST_PAGE).map(url) });
    expect(served.map((request) => request.path)).toEqual(['/robots.txt', '/sitemap-index.xml', '/sitemaps/docs.xml.gz', '/', ...range(1, LAST_PAGE).map(pagePath)]);
    expect(new Set((await chunksOf(created.id)).map((chunk) => chunk.provenance.url)).size).toBe(30);
    // Crawl-delay: 2 → every request after robots.txt waited 2 s (virtual time) after the one
    // before, slept in slices of at most 1 s (a job's wait can yield its slot between them).
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe((served.length - 1) * CRAWL_DELAY_S * 1000);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(1000);
    for (let i = 1; i < served.length; i++) expect(served[i]!.at - served[i - 1]!.at).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000);
  });

  it('stops at maxPages', async () => {
    const created = await createResource(ctx.api, 'website', { url: url(0), settings: { discovery: 'SITEMAP', maxPages: 10 } });
    const resource = await waitForProcessing(ctx.api, created.id);
    // Without excludePaths the archive page is one of the ten; the disallowed page takes no place.
    expect(resource.website!.subLinks).toEqual([`${site.url}/archive/2019`, ...range(1, 8).map(url)]);
    expect(pageRequests().map((request) => request.path)).toEqual(['/', ...range(1, 8).map(pagePath)]);
    expect(served.some((request) => request.path.startsWith('/private'))).toBe(false);
  });

  it('follows same-origin links breadth-first within maxPages, excludePaths and robots.txt', async () => {
    const created = await createResource(ctx.api, 'website', { url: url(0), settings: { discovery: 'LINKS', maxPages: 12, excludePaths: ['/archive/**'] } });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource.website!.subLinks).toEqual(range(1, 11).map(url));
    // No sitemap, no PDF, no other origin, nothing disallowed or excluded: just the pages, in breadth-first order.
    expect(served.map((request) => request.path)).toEqual(['/robots.txt', '/', ...range(1, 11).map(pagePath)]);
  });

  it('follows links no deeper than maxDepth, and combines them with the sitemap', async () => {
    const shallow = await createResource(ctx.api, 'website', { url: url(0), settings: { discovery: 'LINKS', maxDepth: 1 } });
    // The home page's links: pages 1–3 and the archive (not excluded here); nothing they link to.
    expect((await waitForProcessing(ctx.api, shallow.id)).website!.subLinks).toEqual([...range(1, 3).map(url), `${site.url}/archive/2019`]);
    served = [];
    const both = await createResource(ctx.api, 'website', {
      url: url(0), settings: { discovery: 'SITEMAP_AND_LINKS', includePaths: ['/docs/page-1*'], maxDepth: 2 },
    });
    const resource = await waitForProcessing(ctx.api, both.id);
    // includePaths keeps pages 1 and 10–19 of the sitemap; their links lead nowhere else that is included.
    expect(resource.website!.subLinks).toEqual([1, ...range(10, 19)].map(url));
  });

  it('re-syncs conditionally: one changed page is fetched and re-indexed, the others answer 304 and keep their chunks; a gone page leaves', async () => {
    const created = await createResource(ctx.api, 'website', { url: url(0), settings: { discovery: 'SITEMAP', excludePaths: ['/archive/**'] }, syncFrequency: 'SEVEN_DAYS' });
    const first = await waitForProcessing(ctx.api, created.id);
    const before = await chunksOf(created.id);
    expect(before).toHaveLength(30);

    texts.set(7, 'Page 7 now says teapot model 7 is glazed twice and fired at 1280 degrees.');
    served = [];
    const second = await syncAndWait(created.id, first.lastSync!);
    expect(pageRequests()).toHaveLength(30);
    expect(pageRequests().filter((request) => request.status === 200).map((request) => request.path)).toEqual([pagePath(7)]);
    expect(pageRequests().filter((request) => request.status === 304)).toHaveLength(29);
    const after = await chunksOf(created.id);
    const maxBefore = Math.max(...before.map((chunk) => Number(chunk.id)));
    const written = after.filter((chunk) => Number(chunk.id) > maxBefore);
    expect(written.map((chunk) => chunk.provenance.url)).toEqual([url(7)]);
    expect(written[0]!.content).toContain('1280 degrees');
    expect(after.filter((chunk) => Number(chunk.id) <= maxBefore).map((chunk) => chunk.id))
      .toEqual(before.filter((chunk) => chunk.provenance.url !== url(7)).map((chunk) => chunk.id));
    const found = await ctx.services.resources.retrieve(ctx.org.organisationId, [created.id], 'fired at 1280 degrees', 1);
    expect(found[0]!.content).toContain('1280 degrees');

    gone.add(12);
    served = [];
    const third = await syncAndWait(created.id, second.lastSync!);
    expect(third.website!.subLinks).toEqual(range(1, LAST_PAGE).filter((i) => i !== 12).map(url));
    expect(pageRequests().filter((request) => request.status === 200)).toEqual([]);
    const left = await chunksOf(created.id);
    expect(left.map((chunk) => chunk.provenance.url)).not.toContain(url(12));
    expect(left).toHaveLength(29);
    expect(Math.max(...left.map((chunk) => Number(chunk.id)))).toBe(Math.max(...after.map((chunk) => Number(chunk.id))));
  });
});

/** Syncs a resource now (202) and waits for the crawl to finish. */
async function syncAndWait(id: string, lastSync: number) {
  const res = await ctx.api.post(`/v1/resource/${id}/sync`);
  expect(res.status).toBe(202);
  await expect.poll(async () => (await ctx.api.get(`/v1/resource/${id}`)).body.lastSync, { timeout: 20_000 }).toBeGreaterThan(lastSync);
  const resource = await waitForProcessing(ctx.api, id);
  expect(resource.aiProcessingStatus).toBe('DONE');
  return resource;
}

describe('discovery settings', () => {
  it.each([
    [{ discovery: 'EVERYTHING' }, 'settings.discovery must be one of: NONE, SITEMAP, LINKS, SITEMAP_AND_LINKS'],
    [{ discovery: 'LINKS', maxPages: 0 }, 'settings.maxPages must be at least 1'],
    [{ discovery: 'LINKS', maxPages: 1001 }, 'settings.maxPages must be at most 1000'],
    [{ discovery: 'LINKS', maxDepth: 11 }, 'settings.maxDepth must be at most 10'],
    [{ discovery: 'LINKS', maxDepth: 1.5 }, 'settings.maxDepth must be an integer'],
    [{ discovery: 'SITEMAP', excludePaths: ['blog/*'] }, 'settings.excludePaths[0] must be a path pattern starting with / (for example /blog/**)'],
    [{ discovery: 'LINKS', includePaths: [`/${'*a'.repeat(11)}`] }, 'settings.includePaths[0] must have at most 10 wildcards (*, ** or ?)'],
    [{ discovery: 'LINKS', excludePaths: Array.from({ length: 101 }, (_, i) => `/p${i}`) }, 'settings.excludePaths must contain at most 100 patterns'],
    [{ maxPages: 10 }, 'settings.maxPages must not be set when discovery is NONE (it applies to discovered pages only)'],
  ])('answers 400 for %j', async (settings, message) => {
    const res = await ctx.api.post('/v1/resource/website').send({ url: 'https://example.com/', settings });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: [message], error: 'Bad Request' });
  });
});
