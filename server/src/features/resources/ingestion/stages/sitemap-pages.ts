import { BodyTooLargeError } from '../../../../net/safe-fetch.js';
import type { CrawlFrontier } from './crawl-frontier.js';
import { EventLoopSlices } from './event-loop-slices.js';
import type { PoliteFetcher } from './polite-fetcher.js';
import type { readSitemap } from './read-sitemap.js';

/** Sitemap files read per crawl at most (indexes included): a bound on hostile nesting. */
const MAX_SITEMAP_FILES = 50;
/** A sitemap file may be this large (the protocol's 50 MB, uncompressed; gzipped ones are smaller). */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/**
 * The sitemap bytes one crawl reads in all, counting each file as downloaded and, when gzipped,
 * as inflated: one sitemap of the protocol's largest size (50 MB, 50,000 URLs) is far more than
 * a crawl of at most 1,000 pages needs, and without it 50 files could cost 2.5 GB.
 */
export const MAX_SITEMAP_BYTES_PER_CRAWL = 50 * 1024 * 1024;

export interface SitemapReading {
  fetcher: PoliteFetcher;
  frontier: CrawlFrontier;
  /** Reads a fetched sitemap (in the parser process in production). */
  read: (body: Uint8Array) => Promise<ReturnType<typeof readSitemap>>;
  log?: (message: string, details: Record<string, unknown>) => void;
  /** The crawl's byte budget for sitemaps (tests lower it). */
  maxBytes?: number;
}

/**
 * Queues the pages of a site's sitemaps at depth 1 that robots.txt allows: the sitemaps robots.txt
 * names, else `/sitemap.xml`; sitemap indexes are followed. Reading stops once `maxPages` pages are
 * queued or the byte budget is spent. A sitemap that is missing or unreadable is logged and
 * skipped: the named pages are crawled anyway.
 */
export async function queueSitemapPages(root: URL, { fetcher, frontier, read, log, maxBytes = MAX_SITEMAP_BYTES_PER_CRAWL }: SitemapReading): Promise<void> {
  const robots = await fetcher.robots(root.origin);
  const named = robots.sitemaps ?? [];
  const queue = named.length > 0 ? [...named] : [`${root.origin}/sitemap.xml`];
  const visited = new Set<string>();
  const slices = new EventLoopSlices();
  let spent = 0;
  while (queue.length > 0 && visited.size < MAX_SITEMAP_FILES && !frontier.full && !fetcher.timeUp) {
    if (spent >= maxBytes) {
      log?.('sitemaps skipped: the crawl read its budget of sitemap bytes', { budget: maxBytes, sitemapsLeft: queue.length });
      return;
    }
    const location = queue.shift()!;
    // What is left of the budget caps this file too, so the total never exceeds the budget.
    const allowance = Math.min(MAX_SITEMAP_BYTES, maxBytes - spent);
    try {
      // Sitemap lines should be absolute; a relative one is read against the site.
      const url = new URL(location, root.origin);
      if (visited.has(url.href)) continue;
      visited.add(url.href);
      // The default location is a guess, so robots.txt decides; sitemaps it names are invited.
      if (named.length === 0 && !robots.isAllowed(url)) continue;
      const response = await fetcher.fetch(url.href, {}, allowance);
      spent += response.body.byteLength;
      if (response.status !== 200) throw new Error(`it answered ${response.status}`);
      const sitemap = await read(response.body);
      // A gzipped file counts as inflated: that is what was parsed.
      spent += Math.max(0, sitemap.bytes - response.body.byteLength);
      queue.push(...sitemap.sitemaps.filter((child) => URL.canParse(child, url.href)).map((child) => new URL(child, url).href));
      for (const page of sitemap.pages) {
        if (frontier.full || fetcher.timeUp) break;
        // Disallowed pages are not queued, so they do not take the places of allowed ones.
        if (URL.canParse(page) && robots.isAllowed(new URL(page))) frontier.add(page, 1);
        await slices.next();
      }
    } catch (err) {
      // A file cut off at the cap was downloaded up to it.
      if (err instanceof BodyTooLargeError) spent += allowance;
      log?.('sitemap skipped', { sitemap: location, reason: err instanceof Error ? err.message : String(err) });
    }
  }
}
