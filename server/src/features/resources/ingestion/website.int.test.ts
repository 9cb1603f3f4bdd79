import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';

let ctx: TestContext;
let site: FakeServer;
const pages: Record<string, string> = {};
/** When set, requests for this path wait until `release()` (a crawl caught mid-way). */
let hold: { path: string; release: () => void; reached: Promise<void>; arrived: () => void } | undefined;

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title><style>.x{}</style></head><body>
  <nav><a href="/">Home</a> <a href="/a">Products</a></nav>
  <header>Site header banner</header>
  ${body}
  <footer>Copyright footer text</footer><script>var tracking = 1;</script></body></html>`;

beforeAll(async () => {
  site = await startFakeServer(async (req) => {
    if (req.url === '/robots.txt') return { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n\nUser-agent: PickyBot\nDisallow: /\n' };
    if (hold && req.url === hold.path) {
      hold.arrived();
      await new Promise<void>((resolve) => { hold!.release = resolve; });
    }
    const body = pages[req.url ?? ''];
    return body === undefined ? { status: 404, body: 'missing' } : { body };
  });
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
});
afterAll(async () => {
  hold?.release();
  await ctx?.close();
  await site?.close();
});

async function chunksOf(resourceId: string) {
  return ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('ordinal').select('id', 'content', 'provenance', 'content_hash');
}

describe('website crawling', () => {
  it('fetches exactly the url and sub-links, strips boilerplate, honours selectors, robots.txt and the user agent', async () => {
    pages['/'] = page('Home', '<main><h1>Welcome</h1><p>We sell hand-made ceramic teapots.</p><div class="ad">Buy cheap watches now</div></main><aside>Sidebar promo</aside>');
    pages['/a'] = page('Products', '<div id="content"><p>The Kyusu teapot has a side handle.</p></div><div class="related">Unrelated links</div>');
    pages['/private'] = page('Private', '<main><p>Internal salary data.</p></main>');
    pages['/unlinked'] = page('Unlinked', '<main><p>This page is not in the list.</p></main>');
    const created = await createResource(ctx.api, 'website', {
      url: `${site.url}/`, subLinks: [`${site.url}/a`, `${site.url}/private`],
      settings: { removeSelectors: ['.ad', '.related'], userAgent: 'TeaBot/2.0', delayBetweenExtractionMs: 5 },
    });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource).toMatchObject({ aiProcessingStatus: 'DONE', lastSync: expect.any(Number) });
    const chunks = await chunksOf(created.id);
    const text = chunks.map((chunk) => chunk.content).join('\n');
    expect(text).toContain('We sell hand-made ceramic teapots.');
    expect(text).toContain('The Kyusu teapot has a side handle.');
    for (const absent of ['Buy cheap watches', 'Unrelated links', 'Site header', 'Copyright footer', 'Home Products', 'tracking', 'Sidebar promo', 'salary', 'not in the list']) {
      expect(text).not.toContain(absent);
    }
    expect(chunks.map((chunk) => chunk.provenance)).toEqual([
      { url: `${site.url}/`, title: 'Home', section: 'Welcome' }, { url: `${site.url}/a`, title: 'Products' },
    ]);
    const requested = site.requests.filter((request) => request.headers['user-agent'] === 'TeaBot/2.0').map((request) => request.path);
    expect(requested).toEqual(['/robots.txt', '/', '/a']);
  });

  it('keeps only the target selectors when given', async () => {
    pages['/t'] = page('Target', '<div id="content"><p>Only this paragraph counts.</p></div><main><p>Main text ignored.</p></main>');
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/t`, settings: { targetSelectors: ['#content'] } });
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    expect((await chunksOf(created.id)).map((chunk) => chunk.content)).toEqual(['Only this paragraph counts.']);
  });

  it('ends FAILED_NO_TEXT_FOUND when robots.txt disallows every page for the user agent', async () => {
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/`, settings: { userAgent: 'PickyBot/1.0' } });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource).toMatchObject({ aiProcessingStatus: 'FAILED_NO_TEXT_FOUND', failureReason: 'robots.txt disallows every page for the user agent PickyBot/1.0' });
  });

  it('ends FAILED_NO_TEXT_FOUND for pages without text', async () => {
    pages['/empty'] = page('Empty', '<main><img src="a.png"></main>');
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/empty` });
    expect(await waitForProcessing(ctx.api, created.id)).toMatchObject({ aiProcessingStatus: 'FAILED_NO_TEXT_FOUND', failureReason: 'the crawled pages contain no text' });
  });

  it('ends FAILED when no page can be fetched, with the reason', async () => {
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/gone`, subLinks: [`${site.url}/also-gone`] });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource.aiProcessingStatus).toBe('FAILED');
    expect(resource.failureReason).toContain('/gone answered 404');
  });
});

describe('website re-sync', () => {
  it('re-syncs when due: DONE → IN_PROGRESS → DONE, old chunks searchable until the swap, unchanged pages kept', async () => {
    pages['/s1'] = page('Stable', '<main><p>The stable page talks about oolong tea.</p></main>');
    pages['/s2'] = page('Changing', '<main><p>Opening hours: Monday to Friday.</p></main>');
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/s1`, subLinks: [`${site.url}/s2`], syncFrequency: 'ONE_DAY' });
    const first = await waitForProcessing(ctx.api, created.id);
    expect(first).toMatchObject({ aiProcessingStatus: 'DONE', syncFrequencyMs: 86_400_000 });
    const before = await chunksOf(created.id);
    const row = await ctx.database.db('resources').where({ id: created.id }).first('next_sync_at');
    expect(Number(row.next_sync_at)).toBe(first.lastSync! + 86_400_000);

    // Not due yet: nothing is queued.
    expect(await ctx.services.resourceSync.runOnce()).toBe(0);
    pages['/s2'] = page('Changing', '<main><p>Opening hours: every day including Sunday.</p></main>');
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => { arrived = resolve; });
    hold = { path: '/s2', release: () => {}, reached, arrived };
    expect(await ctx.services.resourceSync.runOnce(first.lastSync! + 86_400_000)).toBe(1);
    await reached;
    // Mid-crawl: IN_PROGRESS, and the old content still answers.
    expect((await ctx.api.get(`/v1/resource/${created.id}`)).body.aiProcessingStatus).toBe('IN_PROGRESS');
    const during = await ctx.services.resources.retrieve(ctx.org.organisationId, [created.id], 'opening hours Monday', 5);
    expect(during.map((chunk) => chunk.content)).toContain('Opening hours: Monday to Friday.');
    hold.release();
    hold = undefined;

    const second = await waitForProcessing(ctx.api, created.id);
    expect(second.aiProcessingStatus).toBe('DONE');
    expect(second.lastSync!).toBeGreaterThan(first.lastSync!);
    const after = await chunksOf(created.id);
    // The unchanged page keeps its very rows; the changed one is replaced.
    expect(after.find((chunk) => chunk.provenance.url.endsWith('/s1'))!.id).toBe(before.find((chunk) => chunk.provenance.url.endsWith('/s1'))!.id);
    expect(after.map((chunk) => chunk.content)).toEqual(['The stable page talks about oolong tea.', 'Opening hours: every day including Sunday.']);
    const found = await ctx.services.resources.retrieve(ctx.org.organisationId, [created.id], 'opening hours Sunday', 1);
    expect(found[0]!.content).toContain('Sunday');
  });

  it('does not re-sync resources whose syncFrequency is NEVER', async () => {
    pages['/never'] = page('Never', '<main><p>Static content.</p></main>');
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/never` });
    await waitForProcessing(ctx.api, created.id);
    const row = await ctx.database.db('resources').where({ id: created.id }).first('next_sync_at');
    expect(row.next_sync_at).toBeNull();
    await ctx.services.resourceSync.runOnce(Date.now() + 365 * 86_400_000);
    const jobs = await ctx.database.db('jobs').whereRaw("payload->>'resourceId' = ?", [created.id]).count<{ count: number }[]>({ count: '*' });
    expect(Number(jobs[0]!.count)).toBe(1);
    // The year-ahead run queued the other tests' re-syncs: they finish here, not during the next test.
    await expect.poll(() => ctx.services.jobs.pendingCount(), { timeout: 20_000 }).toBe(0);
  });
});

describe('SSRF guard in ingestion (CRAWL_ALLOW_PRIVATE_NETWORKS=false)', () => {
  let guarded: TestContext;
  beforeAll(async () => {
    guarded = await createTestContext({ env: { CRAWL_ALLOW_PRIVATE_NETWORKS: 'false', VIDEO_HOST_URL: `${site.url}/videos/{id}` } });
    guarded.startJobs();
  });
  afterAll(async () => { await guarded?.close(); });

  it('refuses to crawl a loopback website or read a loopback video host, and says why', async () => {
    const before = site.requests.length;
    const website = await createResource(guarded.api, 'website', { url: `${site.url}/`, subLinks: [`http://localhost:${new URL(site.url).port}/a`] });
    const video = await createResource(guarded.api, 'video-host', { hostedVideoId: '42' });
    const crawled = await waitForProcessing(guarded.api, website.id);
    expect(crawled.aiProcessingStatus).toBe('FAILED');
    expect(crawled.failureReason).toContain('127.0.0.1 is not a public address');
    const hosted = await waitForProcessing(guarded.api, video.id);
    expect(hosted).toMatchObject({ aiProcessingStatus: 'FAILED', failureReason: '127.0.0.1 is not a public address' });
    expect(site.requests.length).toBe(before);
  });
});
