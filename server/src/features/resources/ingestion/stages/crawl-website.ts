import type { WebsiteSettings } from '@parley/shared';
import { yieldPoint } from '../../../../jobs/job-yield.js';
import { BlockedAddressError, FetchFailedError, type SafeFetchOptions, type SafeResponse } from '../../../../net/safe-fetch.js';
import type { ReaderOutput, WebsitePage } from '../ingestion-types.js';
import { CrawlFrontier, type FrontierEntry } from './crawl-frontier.js';
import { CrawlTally } from './crawl-tally.js';
import { EventLoopSlices } from './event-loop-slices.js';
import { extractPageText } from './extract-page-text.js';
import { PoliteFetcher, SYSTEM_CLOCK, type CrawlClock } from './polite-fetcher.js';
import { readSitemap } from './read-sitemap.js';
import { queueSitemapPages } from './sitemap-pages.js';

type PageText = ReturnType<typeof extractPageText>;

export interface CrawlOptions {
  url: string;
  subLinks: string[];
  settings: WebsiteSettings;
  /** Sent when `settings.userAgent` is absent. */
  defaultUserAgent: string;
  allowPrivateNetworks: boolean;
  /** Tests narrow the SSRF policy; production uses the default (public addresses only). */
  isAllowedAddress?: SafeFetchOptions['isAllowedAddress'];
  signal?: AbortSignal;
  log?: (message: string, details: Record<string, unknown>) => void;
  /** Reads a page's text (and links); production runs it in the parser process (huge or hostile pages). */
  extract?: (html: string, settings: WebsiteSettings, linksFrom?: string) => Promise<PageText>;
  /** Reads a sitemap; production runs it in the parser process too. */
  readSitemap?: (body: Uint8Array) => Promise<ReturnType<typeof readSitemap>>;
  /** The whole crawl stops after this long and keeps the pages read so far (CRAWL_MAX_DURATION_MS). */
  maxDurationMs?: number;
  /** Waits and deadlines run on this clock (tests record the waits on a virtual one). */
  clock?: CrawlClock;
  /** The pages the last crawl indexed under the current pipeline, by URL: fetched conditionally. */
  known?: ReadonlyMap<string, WebsitePage>;
  /** The text pipeline the pages are hashed under (`textPipelineKey`); the default chunking when absent. */
  pipelineKey?: string;
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain)\b/i;

/** A page fetch that failed in a way that says nothing about its content (5xx, a timeout): its old chunks stay. */
class TransientPageError extends Error {}

/**
 * Crawls a website: exactly `url` and the `subLinks` (decisions.md § Resources and processing),
 * plus, when `settings.discovery` asks, the pages of its sitemaps and its same-origin links
 * breadth-first within `maxPages`, `maxDepth` and the path filters. robots.txt and its
 * Crawl-delay are honoured, and every request goes through the SSRF guard. A page indexed before
 * is fetched conditionally: a 304 keeps its chunks unread, a 404/410 drops it, a transient
 * failure keeps it. Each page is one section.
 * @throws NoTextFoundError when the pages hold no text; IngestionFailedError when no page could be fetched.
 */
export async function crawlWebsite(options: CrawlOptions): Promise<ReaderOutput> {
  const { settings } = options;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const userAgent = settings.userAgent ?? options.defaultUserAgent;
  const fetcher = new PoliteFetcher({
    userAgent, clock, delayMs: settings.delayBetweenExtractionMs ?? 0, deadline: clock.now() + (options.maxDurationMs ?? Number.POSITIVE_INFINITY),
    fetch: {
      allowPrivateNetworks: options.allowPrivateNetworks, isAllowedAddress: options.isAllowedAddress, signal: options.signal,
      headers: { 'user-agent': userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8' },
    },
  });
  try {
    return await crawlPages(options, fetcher, userAgent);
  } finally {
    fetcher.close();
  }
}

async function crawlPages(options: CrawlOptions, fetcher: PoliteFetcher, userAgent: string): Promise<ReaderOutput> {
  const { settings } = options;
  const discovery = settings.discovery ?? 'NONE';
  const frontier = new CrawlFrontier(options.url, options.subLinks, settings);
  if (discovery === 'SITEMAP' || discovery === 'SITEMAP_AND_LINKS') {
    await queueSitemapPages(new URL(options.url), { fetcher, frontier, read: options.readSitemap ?? (async (body) => readSitemap(body)), log: options.log });
  }
  const followLinks = discovery === 'LINKS' || discovery === 'SITEMAP_AND_LINKS';
  const tally = new CrawlTally(userAgent, options.pipelineKey);
  const slices = new EventLoopSlices();
  const queueLinks = async (links: readonly string[], depth: number) => {
    for (const link of links) {
      frontier.add(link, depth);
      await slices.next();
    }
  };
  const failed = (err: unknown, entry: FrontierEntry, known: WebsitePage | undefined, follow: boolean) => recordFailure(err, { entry, known, follow, tally, options, queueLinks });
  const reads = new ReadAhead();
  try {
    for (;;) {
      let entry = frontier.next();
      if (!entry && reads.busy) {
        await reads.settle();
        entry = frontier.next();
      }
      if (!entry) break;
      // Between two pages: another organisation's job may take this slot for a while (job-yield.ts).
      await yieldPoint();
      options.signal?.throwIfAborted();
      if (fetcher.timeUp) {
        await reads.settle();
        options.log?.('crawl stopped: its time limit was reached', { pagesLeft: frontier.pending + 1 });
        tally.failures.push(`the crawl reached its time limit with ${frontier.pending + 1} pages left`);
        break;
      }
      const url = new URL(entry.url);
      if (!(await fetcher.robots(url.origin)).isAllowed(url)) {
        options.log?.('page skipped: disallowed by robots.txt', { url: entry.url });
        frontier.uncount();
        tally.disallowed++;
        continue;
      }
      const page = entry;
      const known = options.known?.get(page.url);
      const follow = followLinks && page.depth < frontier.maxDepth;
      const response = await fetchPage(page, known, fetcher).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      await reads.settle();
      if (response instanceof Error) {
        await failed(response, page, known, follow);
        continue;
      }
      reads.start(readPage(page, known, response, { fetcher, tally, options, follow, accepts: (link) => frontier.accepts(link), slices })
        .then((links) => queueLinks(links ?? [], page.depth + 1), (err: unknown) => failed(err, page, known, follow)));
    }
    await reads.settle();
  } finally {
    reads.abandon();
  }
  return tally.toOutput();
}

/**
 * The page being read (in the parser process) while the next one is fetched: the fetches stay one
 * at a time, at the site's pace, and every page's outcome (its section, its links queued) is
 * recorded in crawl order before the next page's. The next page is taken from the queue early
 * only when there is one (its links could not come before it), so the crawl's order is the same.
 */
class ReadAhead {
  private reading?: Promise<void>;

  get busy(): boolean {
    return this.reading !== undefined;
  }

  start(read: Promise<void>): void {
    this.reading = read;
  }

  /** Waits for the page being read; its failure (an abort) is thrown here. */
  async settle(): Promise<void> {
    const reading = this.reading;
    this.reading = undefined;
    await reading;
  }

  /** A crawl that stopped leaves no read behind whose failure would go unhandled. */
  abandon(): void {
    this.reading?.catch(() => undefined);
  }
}

/** Records a page that failed; a server error or a timeout says nothing about the page: it keeps its chunks (and its links). */
async function recordFailure(err: unknown, { entry, known, follow, tally, options, queueLinks }: {
  entry: FrontierEntry; known: WebsitePage | undefined; follow: boolean; tally: CrawlTally; options: CrawlOptions;
  queueLinks: (links: readonly string[], depth: number) => Promise<void>;
}): Promise<void> {
  if (options.signal?.aborted) throw err;
  const reason = err instanceof Error ? err.message : String(err);
  tally.failures.push(reason);
  options.log?.('page failed', { url: entry.url, reason, blocked: err instanceof BlockedAddressError });
  if (known && (err instanceof TransientPageError || err instanceof FetchFailedError)) {
    tally.keep(known);
    await queueLinks(follow ? known.links ?? [] : [], entry.depth + 1);
  }
}

interface PageCrawl {
  fetcher: PoliteFetcher;
  tally: CrawlTally;
  options: CrawlOptions;
  /** Whether the page's links are followed (discovery by links, above `maxDepth`). */
  follow: boolean;
  /** Whether a link may be crawled at all (the frontier's filters); only those are kept with the page. */
  accepts: (link: URL) => boolean;
  /** A page may hold many thousands of links: checking them gives other requests turns. */
  slices: EventLoopSlices;
}

/** Fetches one page, conditionally when it is known. */
function fetchPage(entry: FrontierEntry, known: WebsitePage | undefined, fetcher: PoliteFetcher): Promise<SafeResponse> {
  const conditional: Record<string, string> = {};
  if (known?.etag) conditional['if-none-match'] = known.etag;
  if (known?.lastModified) conditional['if-modified-since'] = known.lastModified;
  return fetcher.fetch(entry.url, conditional);
}

/** Records a fetched page: kept (304), failed, or read; returns its links when they are followed. */
async function readPage(entry: FrontierEntry, known: WebsitePage | undefined, response: SafeResponse, { tally, options, follow, accepts, slices }: PageCrawl): Promise<string[] | undefined> {
  if (response.status === 304 && known) {
    tally.fetched++;
    tally.keep({ ...known, ...validators(response.headers) });
    return follow ? known.links : undefined;
  }
  if (response.status !== 200) {
    // 404 and 410 say the page is gone (its chunks leave the index); a 5xx or 429 is passing.
    const message = `${entry.url} answered ${response.status}`;
    throw response.status >= 500 || response.status === 429 ? new TransientPageError(message) : new Error(message);
  }
  tally.fetched++;
  const contentType = String(response.headers['content-type'] ?? 'text/html');
  if (!HTML_TYPES.test(contentType)) throw new Error(`${entry.url} is ${contentType}, not a web page`);
  const html = response.body.toString('utf8');
  const extract = options.extract ?? (async (page: string, settings: WebsiteSettings, from?: string) => extractPageText(page, settings, from));
  const extracted = /^text\/plain/i.test(contentType)
    ? { title: undefined, units: html.split(/\n{2,}/).map((text) => ({ text: text.trim() })).filter((unit) => unit.text), links: undefined }
    : await extract(html, options.settings, follow ? response.url : undefined).catch((err: unknown) => {
      tally.unreadable.push(`${entry.url}: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    });
  const links = follow ? await acceptedLinks(extracted.links ?? [], accepts, slices) : undefined;
  tally.add(entry.url, {
    provenance: { url: response.url, ...(extracted.title ? { title: extracted.title } : {}) }, units: extracted.units,
  }, { ...validators(response.headers), ...(links ? { links } : {}) });
  return links;
}

async function acceptedLinks(links: readonly string[], accepts: (link: URL) => boolean, slices: EventLoopSlices): Promise<string[]> {
  const accepted: string[] = [];
  for (const link of links) {
    if (accepts(new URL(link))) accepted.push(link);
    await slices.next();
  }
  return accepted;
}

function validators(headers: Record<string, string | string[] | undefined>): Pick<WebsitePage, 'etag' | 'lastModified'> {
  const etag = headers.etag;
  const lastModified = headers['last-modified'];
  return {
    ...(typeof etag === 'string' && etag ? { etag } : {}),
    ...(typeof lastModified === 'string' && lastModified ? { lastModified } : {}),
  };
}
