import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fixtures/fake-servers.js';
import { CrawlFrontier } from './crawl-frontier.js';
import { PoliteFetcher, SYSTEM_CLOCK } from './polite-fetcher.js';
import { readSitemap } from './read-sitemap.js';
import { queueSitemapPages } from './sitemap-pages.js';

let site: FakeServer;

/** A urlset of 300 pages named `prefix-i`: about 17 KB. */
const urlset = (prefix: string) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
  Array.from({ length: 300 }, (_, i) => `<url><loc>${site.url}/${prefix}-${i}</loc></url>`).join('\n')}</urlset>`;

beforeAll(async () => {
  site = await startFakeServer((req) => {
    switch (req.url) {
      case '/robots.txt': return { type: 'text/plain', body: ['one.xml', 'two.xml.gz', 'three.xml', 'four.xml'].map((name) => `Sitemap: ${site.url}/${name}`).join('\n') };
      case '/one.xml': return { type: 'application/xml', body: urlset('one') };
      case '/two.xml.gz': return { type: 'application/gzip', body: gzipSync(urlset('two')) };
      case '/three.xml': return { type: 'application/xml', body: urlset('three') };
      case '/four.xml': return { type: 'application/xml', body: urlset('four') };
      default: return { status: 404 };
    }
  });
});
afterAll(async () => { await site?.close(); });

describe('queueSitemapPages', () => {
  it('stops reading sitemaps once the crawl read its byte budget, counting gzipped ones inflated, and keeps their pages', async () => {
    const size = Buffer.byteLength(urlset('one'));
    const fetcher = new PoliteFetcher({ fetch: { allowPrivateNetworks: true }, userAgent: 'TestBot/1.0', delayMs: 0, clock: SYSTEM_CLOCK, deadline: Number.POSITIVE_INFINITY });
    const frontier = new CrawlFrontier(`${site.url}/`, [], { discovery: 'SITEMAP', maxPages: 1000 });
    const logs: { message: string; details: Record<string, unknown> }[] = [];
    // Room for one and two (inflated), and part of three, which is cut off at what is left.
    const maxBytes = 2 * size + 1000;
    try {
      await queueSitemapPages(new URL(site.url), { fetcher, frontier, read: async (body) => readSitemap(body), log: (message, details) => logs.push({ message, details }), maxBytes });
    } finally {
      fetcher.close();
    }
    expect(site.requests.map((request) => request.path)).toEqual(['/robots.txt', '/one.xml', '/two.xml.gz', '/three.xml']);
    expect(frontier.pending).toBe(1 + 2 * 300);
    expect(logs).toEqual([
      { message: 'sitemap skipped', details: { sitemap: `${site.url}/three.xml`, reason: `${site.url}/three.xml is larger than 1000 bytes` } },
      { message: 'sitemaps skipped: the crawl read its budget of sitemap bytes', details: { budget: maxBytes, sitemapsLeft: 1 } },
    ]);
  });
});
