import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fixtures/fake-servers.js';
import type { WebsitePage } from '../ingestion-types.js';
import { crawlWebsite, type CrawlOptions } from './crawl-website.js';

let site: FakeServer;
let port: string;
let status500 = false;

beforeAll(async () => {
  site = await startFakeServer((req) => {
    switch (req.url) {
      case '/robots.txt': return { type: 'text/plain', body: `User-agent: *\nAllow: /\nSitemap: http://127.0.0.2:${port}/hidden-sitemap.xml\nSitemap: /sitemap.xml\n` };
      case '/sitemap.xml': return { type: 'application/xml', body: `<urlset><url><loc>${site.url}/a</loc></url><url><loc>${site.url}/redirect</loc></url></urlset>` };
      case '/redirect': return { status: 302, headers: { location: `http://127.0.0.2:${port}/secret` } };
      case '/': return { body: `<main><p>Home of the tea shop.</p><a href="http://localhost:${port}/b">B</a><a href="/a">A</a></main>` };
      case '/a': return status500 ? { status: 503, body: 'busy' } : { body: '<main><p>Page A about sencha.</p></main>' };
      default: return { status: 404, body: 'missing' };
    }
  });
  port = new URL(site.url).port;
});
afterAll(async () => { await site?.close(); });

function crawl(options: Partial<CrawlOptions>) {
  const logs: { message: string; details: Record<string, unknown> }[] = [];
  const run = crawlWebsite({
    url: `${site.url}/`, subLinks: [], settings: { discovery: 'SITEMAP_AND_LINKS' }, defaultUserAgent: 'TestBot/1.0',
    // Only the site's own address is allowed: 127.0.0.2 stands for a private target.
    allowPrivateNetworks: false, isAllowedAddress: (address) => address === '127.0.0.1',
    log: (message, details) => logs.push({ message, details }), ...options,
  });
  return { run, logs };
}

describe('crawlWebsite with discovery', () => {
  it('sends every discovered sitemap, page and redirect through the SSRF guard, and keeps to the origin', async () => {
    const before = site.requests.length;
    const { run, logs } = crawl({});
    const output = await run;
    expect(output.pages!.map((page) => page.url)).toEqual([`${site.url}/`, `${site.url}/a`]);
    expect(site.requests.slice(before).map((request) => request.path)).toEqual(['/robots.txt', '/sitemap.xml', '/', '/a', '/redirect']);
    expect(logs).toContainEqual({ message: 'sitemap skipped', details: { sitemap: `http://127.0.0.2:${port}/hidden-sitemap.xml`, reason: '127.0.0.2 is not a public address' } });
    expect(logs).toContainEqual({ message: 'page failed', details: { url: `${site.url}/redirect`, reason: '127.0.0.2 is not a public address', blocked: true } });
  });

  it('keeps a known page whose server fails for now, with its chunks, and drops one that is gone', async () => {
    status500 = true;
    const known = new Map<string, WebsitePage>([
      [`${site.url}/a`, { url: `${site.url}/a`, sectionHash: 'hash-a', textBytes: 20, etag: '"a1"' }],
      [`${site.url}/gone`, { url: `${site.url}/gone`, sectionHash: 'hash-gone', textBytes: 20 }],
    ]);
    try {
      const { run } = crawl({ settings: {}, subLinks: [`${site.url}/a`, `${site.url}/gone`], known });
      const output = await run;
      expect(output.pages!.map((page) => page.url)).toEqual([`${site.url}/`, `${site.url}/a`]);
      expect(output.keptHashes).toEqual(['hash-a']);
      expect(site.requests.at(-2)!.headers['if-none-match']).toBe('"a1"');
    } finally {
      status500 = false;
    }
  });
});
