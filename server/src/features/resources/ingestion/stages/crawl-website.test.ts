import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fixtures/fake-servers.js';
import type { WebsitePage } from '../ingestion-types.js';
import { crawlWebsite, type CrawlOptions } from './crawl-website.js';
import { extractPageText } from './extract-page-text.js';

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

describe('crawlWebsite reading one page while fetching the next', () => {
  it('fetches the next queued page during a read, one request at a time, and keeps the crawl order', async () => {
    const events: string[] = [];
    const arrived = new Map<string, () => void>();
    const arrival = (path: string) => new Promise<'fetched'>((resolve) => arrived.set(path, () => resolve('fetched')));
    const waits = new Map([['/p1', arrival('/p2')], ['/p2', arrival('/p3')]]);
    let inFlight = 0;
    let mostInFlight = 0;
    const chain = await startFakeServer(async (req) => {
      const path = req.url ?? '/';
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      events.push(`fetch ${path}`);
      arrived.get(path)?.();
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      if (path === '/robots.txt') return { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };
      if (path === '/') return { body: '<main><p>Index.</p><a href="/p1">1</a><a href="/p2">2</a><a href="/p3">3</a></main>' };
      return { body: `<main><p>Page ${path}.</p></main>` };
    });
    try {
      const output = await crawlWebsite({
        url: `${chain.url}/`, subLinks: [], settings: { discovery: 'LINKS', maxDepth: 1 }, defaultUserAgent: 'TestBot/1.0',
        allowPrivateNetworks: true,
        extract: async (html, settings, from) => {
          const path = new URL(html.match(/Page (\/p\d)/)?.[1] ?? '/', chain.url).pathname;
          events.push(`read ${path}`);
          // A read of /p1 or /p2 ends once the next page's request arrived (or after 5 s: then it did not overlap).
          const ended = await Promise.race([waits.get(path) ?? 'no wait', new Promise((resolve) => setTimeout(resolve, 5_000, 'timed out'))]);
          events.push(`read ${path} done (${ended})`);
          return extractPageText(html, settings, from);
        },
      });
      expect(output.pages!.map((page) => new URL(page.url).pathname)).toEqual(['/', '/p1', '/p2', '/p3']);
      expect(output.sections.map((section) => section.units[0]!.text)).toEqual(['Index.', 'Page /p1.', 'Page /p2.', 'Page /p3.']);
      expect(mostInFlight).toBe(1);
      expect(events).toEqual([
        'fetch /robots.txt', 'fetch /', 'read /', 'read / done (no wait)',
        // The index's links are known only once it is read; then each read overlaps the next fetch.
        'fetch /p1', 'read /p1', 'fetch /p2', 'read /p1 done (fetched)', 'read /p2', 'fetch /p3', 'read /p2 done (fetched)', 'read /p3', 'read /p3 done (no wait)',
      ]);
    } finally {
      await chain.close();
    }
  });
});
