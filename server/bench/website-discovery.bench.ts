import { createHash } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { WebsiteSettings } from '@parley/shared';
import { loadConfig } from '../src/config.js';
import type { AuthContext } from '../src/features/organisations/organisations.service.js';
import { startFakeServer, type FakeServer } from '../src/features/resources/ingestion/fixtures/fake-servers.js';
import { crawlWebsite } from '../src/features/resources/ingestion/stages/crawl-website.js';
import { createServices, type Services } from '../src/services.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';
import { assertResourceDone, drainJobs } from './bench-ingestion.js';
import { loadSquadText } from './squad-corpus.js';

/** A site of `count` pages on 127.0.0.1: page i links to pages 3i+1..3i+3, a sitemap lists them all, ETags answer 304. */
async function startSite(count: number, paragraphs: readonly string[]): Promise<{ site: FakeServer; urls: string[] }> {
  const path = (i: number) => (i === 0 ? '/' : `/p/${i}`);
  const bodies = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const links = [1, 2, 3].map((k) => 3 * i + k).filter((child) => child < count).map((child) => `<a href="${path(child)}">Page ${child}</a>`);
    bodies.set(path(i), `<html><head><title>Page ${i}</title></head><body><nav><a href="/">Home</a> ${links.join(' ')}</nav>`
      + `<main><h1>Page ${i}</h1><p>${paragraphs[i % paragraphs.length]}</p></main><footer>(c)</footer></body></html>`);
  }
  let origin = '';
  const site = await startFakeServer((req) => {
    if (req.url === '/robots.txt') return { type: 'text/plain', body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n` };
    if (req.url === '/sitemap.xml') {
      const locations = [...bodies.keys()].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('');
      return { type: 'application/xml', body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locations}</urlset>` };
    }
    const body = bodies.get(req.url ?? '');
    if (body === undefined) return { status: 404, body: 'not found' };
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    return req.headers['if-none-match'] === etag ? { status: 304, headers: { etag } } : { body, headers: { etag } };
  });
  origin = site.url;
  return { site, urls: [...bodies.keys()].map((p) => `${origin}${p}`) };
}

/** Plain sequential keep-alive GETs of the same pages, the baseline of the same run: the median of three after a warm-up. */
async function rawFetchSeconds(urls: readonly string[]): Promise<number> {
  const once = async () => {
    const agent = new http.Agent({ keepAlive: true });
    const started = performance.now();
    for (const url of urls) await new Promise<void>((resolve, reject) => http.get(url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject));
    agent.destroy();
    return (performance.now() - started) / 1000;
  };
  await once();
  const rounds = [await once(), await once(), await once()].sort((a, b) => a - b);
  return rounds[1]!;
}

async function indexedPages(services: Services, id: string): Promise<number> {
  const row = await services.database.db('website_pages').where({ resource_id: id }).count<{ count: string }[]>({ count: '*' });
  return Number(row[0]!.count);
}

async function discover(ctx: BenchContext, services: Services, auth: AuthContext, urls: readonly string[], rawSeconds: number, settings: WebsiteSettings): Promise<string> {
  const started = performance.now();
  const resource = await services.resources.createWebsite(auth, { url: urls[0]!, subLinks: [], syncFrequency: 'NEVER', settings, tags: [] });
  const seconds = await drainJobs(services, started);
  await assertResourceDone(services, resource.id);
  const pages = await indexedPages(services, resource.id);
  if (pages !== urls.length) throw new Error(`${settings.discovery} discovery indexed ${pages} of ${urls.length} pages`);
  ctx.report(`${settings.discovery} discovery, ${pages} pages`, {
    seconds: fmt(seconds), 'pages/s': fmt(pages / seconds, 0), 'raw GET pages/s': fmt(urls.length / rawSeconds, 0), 'ratio crawler/raw': fmt(rawSeconds / seconds),
  });
  return resource.id;
}

/**
 * The crawl stage alone (no job, no parser process, no index): link discovery reading every page,
 * then a re-crawl where every page answers 304. Shows what the crawler costs beyond the fetches.
 */
async function crawlStage(ctx: BenchContext, urls: readonly string[], rawSeconds: number): Promise<void> {
  const crawl = (known?: Map<string, NonNullable<Awaited<ReturnType<typeof crawlWebsite>>['pages']>[number]>) => crawlWebsite({
    url: urls[0]!, subLinks: [], settings: { discovery: 'LINKS', maxPages: urls.length, maxDepth: 10 }, defaultUserAgent: 'ParleyBench/1.0', allowPrivateNetworks: true, known,
  });
  let started = performance.now();
  const output = await crawl();
  const seconds = (performance.now() - started) / 1000;
  started = performance.now();
  await crawl(new Map(output.pages!.map((page) => [page.url, page])));
  const conditionalSeconds = (performance.now() - started) / 1000;
  ctx.report(`crawl stage alone, ${output.pages!.length} pages (links)`, { 'pages/s': fmt(urls.length / seconds, 0), 'ratio crawler/raw': fmt(rawSeconds / seconds) });
  ctx.report('crawl stage alone, every page 304', { 'pages/s': fmt(urls.length / conditionalSeconds, 0), 'ratio crawler/raw': fmt(rawSeconds / conditionalSeconds) });
}

/**
 * Whole-site discovery (issue 13): pages/s of a sitemap crawl and of a breadth-first link crawl
 * through the real pipeline (robots.txt, parser process, chunking, index), and of a re-sync where
 * every page answers 304, each against plain GETs of the same pages in the same run; and the
 * crawl stage alone. The pipeline's figures include starting the parser process once per crawl.
 */
export const benchmark: Benchmark = {
  name: 'Website discovery: crawl pages/s against raw fetches',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const { paragraphs } = await loadSquadText();
    const count = ctx.full ? 1000 : 300;
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', CRAWL_ALLOW_PRIVATE_NETWORKS: 'true', LOCAL_SENTENCE_ENCODER: 'false' });
    const services = createServices(config, database, pino({ level: 'silent' }), { jobPollIntervalMs: 1000 });
    services.worker.start();
    const { site, urls } = await startSite(count, paragraphs);
    try {
      const org = await services.organisations.createOrganisation({ name: 'Discovery bench' });
      const auth = (await services.organisations.authenticate(org.apiKey))!;
      const rawSeconds = await rawFetchSeconds(urls);
      await crawlStage(ctx, urls, rawSeconds);
      const limits = { maxPages: count, maxDepth: 10 };
      const id = await discover(ctx, services, auth, urls, rawSeconds, { discovery: 'SITEMAP', ...limits });
      await discover(ctx, services, auth, urls, rawSeconds, { discovery: 'LINKS', ...limits });
      const started = performance.now();
      await services.resourceUpkeep.syncNow(auth, id);
      const seconds = await drainJobs(services, started);
      await assertResourceDone(services, id);
      ctx.report(`re-sync, ${count} pages unchanged (304)`, {
        seconds: fmt(seconds), 'pages/s': fmt(count / seconds, 0), 'ratio crawler/raw': fmt(rawSeconds / seconds),
      });
    } finally {
      await site.close();
      await services.worker.stop();
      await database.close();
    }
  },
};
