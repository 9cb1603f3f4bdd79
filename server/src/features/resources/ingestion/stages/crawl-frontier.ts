import { WEBSITE_DISCOVERY_DEFAULTS, type WebsiteSettings } from '@parley/shared';
import { compilePathGlobs } from './path-glob.js';

/** A page to fetch and how many links away from `url` it was found. */
export interface FrontierEntry { url: string; depth: number }

/** Files a link may point to that are not web pages: not fetched as pages, not counted. */
const NOT_A_PAGE = /\.(?:pdf|zip|gz|tgz|rar|7z|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|mov|avi|webm|ogg|wav|woff2?|ttf|eot|css|js|json|xml|rss|atom|exe|dmg|apk|iso|docx?|xlsx?|pptx?)$/i;

/**
 * A discovered URL whose path is longer than this is not crawled: sitemaps.org caps a URL at 2,048
 * characters, and it bounds what each path filter reads per link.
 */
export const MAX_PATH_LENGTH = 2048;

/**
 * The pages of one crawl, breadth-first: `url` and `subLinks` always (the owner named them), then
 * discovered pages of `url`'s origin whose path passes `includePaths`/`excludePaths`, each once,
 * until `maxPages` have been fetched. Discovery off (`NONE`): exactly the named pages.
 */
export class CrawlFrontier {
  private readonly queue: FrontierEntry[] = [];
  private readonly seen = new Set<string>();
  private readonly origin: string;
  private readonly included: (path: string) => boolean;
  private readonly excluded: (path: string) => boolean;
  private readonly maxPages: number;
  private head = 0;
  private taken = 0;
  readonly maxDepth: number;

  constructor(url: string, subLinks: readonly string[], settings: WebsiteSettings) {
    this.origin = new URL(url).origin;
    const discovers = (settings.discovery ?? 'NONE') !== 'NONE';
    this.maxPages = discovers ? settings.maxPages ?? WEBSITE_DISCOVERY_DEFAULTS.maxPages : Number.POSITIVE_INFINITY;
    this.maxDepth = discovers ? settings.maxDepth ?? WEBSITE_DISCOVERY_DEFAULTS.maxDepth : 0;
    const include = settings.includePaths ?? [];
    this.included = include.length > 0 ? compilePathGlobs(include) : () => true;
    this.excluded = compilePathGlobs(settings.excludePaths ?? []);
    for (const link of [url, ...subLinks]) this.push(new URL(link), 0);
  }

  /** Queues a discovered page when it is new, on the site, within the depth and the path filters. */
  add(link: string, depth: number): boolean {
    if (depth > this.maxDepth) return false;
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return false;
    }
    url.hash = '';
    // A link seen before costs no path filtering (a site's every page links its menu).
    if (this.seen.has(url.href) || !this.accepts(url)) return false;
    return this.push(url, depth);
  }

  /** Whether a discovered URL may be fetched at all (origin, path filters, kind of file). */
  accepts(url: URL): boolean {
    return url.origin === this.origin && url.pathname.length <= MAX_PATH_LENGTH && !NOT_A_PAGE.test(url.pathname)
      && this.included(url.pathname) && !this.excluded(url.pathname);
  }

  /** The next page to fetch; each call counts against `maxPages`. */
  next(): FrontierEntry | undefined {
    if (this.taken >= this.maxPages || this.head >= this.queue.length) return undefined;
    this.taken++;
    return this.queue[this.head++];
  }

  /** Gives back the page `next()` returned without counting it (robots.txt disallowed it). */
  uncount(): void {
    this.taken--;
  }

  /** Whether `maxPages` pages are queued already (more sitemaps need not be read). */
  get full(): boolean {
    return this.queue.length >= this.maxPages;
  }

  /** How many pages are still queued. */
  get pending(): number {
    return this.queue.length - this.head;
  }

  private push(url: URL, depth: number): boolean {
    url.hash = '';
    if (this.seen.has(url.href)) return false;
    this.seen.add(url.href);
    this.queue.push({ url: url.href, depth });
    return true;
  }
}
