import { setTimeout as sleep } from 'node:timers/promises';
import type { WebsiteSettings } from '@parley/shared';
import { BlockedAddressError, safeFetch, type SafeFetchOptions } from '../../../../net/safe-fetch.js';
import { IngestionFailedError, NoTextFoundError, type ReaderOutput, type SourceSection } from '../ingestion-types.js';
import { extractPageText } from './extract-page-text.js';
import { ALLOW_ALL, DISALLOW_ALL, parseRobotsTxt, type RobotsRules } from './robots-txt.js';

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
  /** Reads a page's text; production runs it in the parser process (huge or hostile pages). */
  extract?: (html: string, settings: WebsiteSettings) => Promise<PageText>;
  /** The whole crawl stops after this long and keeps the pages read so far (CRAWL_MAX_DURATION_MS). */
  maxDurationMs?: number;
}

type PageText = ReturnType<typeof extractPageText>;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain)\b/i;

async function robotsFor(origin: string, fetchOptions: SafeFetchOptions): Promise<RobotsRules> {
  try {
    const response = await safeFetch(`${origin}/robots.txt`, { ...fetchOptions, maxBytes: 512 * 1024 });
    if (response.status >= 200 && response.status < 300) return parseRobotsTxt(response.body.toString('utf8'), String(fetchOptions.headers?.['user-agent']));
    return response.status >= 500 ? DISALLOW_ALL : ALLOW_ALL;
  } catch {
    // Unreachable robots.txt: the pages themselves will fail the same way and say why.
    return ALLOW_ALL;
  }
}

/**
 * Fetches exactly `url` and the `subLinks` (decisions.md § Resources and processing): with the
 * configured user agent, honouring robots.txt (disallowed pages are skipped), waiting
 * `delayBetweenExtractionMs` between pages, through the SSRF guard. Each page is one section.
 * @throws NoTextFoundError when the pages hold no text; IngestionFailedError when no page could be fetched.
 */
export async function crawlWebsite(options: CrawlOptions): Promise<ReaderOutput> {
  const userAgent = options.settings.userAgent ?? options.defaultUserAgent;
  const fetchOptions: SafeFetchOptions = {
    allowPrivateNetworks: options.allowPrivateNetworks, isAllowedAddress: options.isAllowedAddress, signal: options.signal,
    headers: { 'user-agent': userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8' },
  };
  const pages = [...new Set([options.url, ...options.subLinks].map((link) => new URL(link).href))];
  const robots = new Map<string, RobotsRules>();
  const sections: SourceSection[] = [];
  const failures: string[] = [];
  let fetched = 0;
  let disallowed = 0;
  const unreadable: string[] = [];
  const extract = options.extract ?? (async (html: string, settings: WebsiteSettings) => extractPageText(html, settings));
  const deadline = Date.now() + (options.maxDurationMs ?? Number.POSITIVE_INFINITY);
  for (const [index, page] of pages.entries()) {
    options.signal?.throwIfAborted();
    if (Date.now() >= deadline) {
      options.log?.('crawl stopped: its time limit was reached', { pagesLeft: pages.length - index });
      failures.push(`the crawl reached its time limit after ${index} of ${pages.length} pages`);
      break;
    }
    const url = new URL(page);
    if (!robots.has(url.origin)) robots.set(url.origin, await robotsFor(url.origin, fetchOptions));
    if (!robots.get(url.origin)!.isAllowed(url)) {
      options.log?.('page skipped: disallowed by robots.txt', { url: page });
      disallowed++;
      continue;
    }
    const delay = Math.min(options.settings.delayBetweenExtractionMs ?? 0, Math.max(0, deadline - Date.now()));
    if (index > 0 && delay > 0) await sleep(delay, undefined, { signal: options.signal });
    try {
      const response = await safeFetch(page, fetchOptions);
      if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
      fetched++;
      const contentType = String(response.headers['content-type'] ?? 'text/html');
      if (!HTML_TYPES.test(contentType)) throw new Error(`${page} is ${contentType}, not a web page`);
      const html = response.body.toString('utf8');
      const extracted = /^text\/plain/i.test(contentType)
        ? { title: undefined, units: html.split(/\n{2,}/).map((text) => ({ text: text.trim() })).filter((unit) => unit.text) }
        : await extract(html, options.settings).catch((err: unknown) => {
          unreadable.push(`${page}: ${err instanceof Error ? err.message : String(err)}`);
          throw err;
        });
      if (extracted.units.length > 0) sections.push({ provenance: { url: response.url, ...(extracted.title ? { title: extracted.title } : {}) }, units: extracted.units });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      failures.push(reason);
      options.log?.('page failed', { url: page, reason, blocked: err instanceof BlockedAddressError });
    }
  }
  if (sections.length > 0) return { sections };
  if (fetched === 0 && failures.length > 0) throw new IngestionFailedError(`no page could be fetched: ${failures.slice(0, 3).join('; ')}`);
  // Pages the parser refused (over its time or memory limit) are a failure, not an absence of text.
  if (unreadable.length > 0) throw new IngestionFailedError(`no page could be read: ${unreadable.slice(0, 3).join('; ')}`);
  if (disallowed === pages.length) throw new NoTextFoundError(`robots.txt disallows every page for the user agent ${userAgent}`);
  throw new NoTextFoundError('the crawled pages contain no text');
}
