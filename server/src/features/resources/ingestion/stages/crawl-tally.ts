import { IngestionFailedError, NoTextFoundError, toStorableOutput, type ReaderOutput, type SourceSection, type WebsitePage } from '../ingestion-types.js';
import { DEFAULT_PIPELINE_KEY, sectionHash } from './chunk-text.js';

/**
 * What one crawl found: the sections of pages read, the pages kept unread (304, or a transient
 * failure of a page indexed before), and why others failed; it decides the crawl's outcome.
 */
export class CrawlTally {
  readonly sections: SourceSection[] = [];
  readonly pages: WebsitePage[] = [];
  readonly keptHashes: string[] = [];
  readonly failures: string[] = [];
  /** Pages the parser refused (over its time or memory limit). */
  readonly unreadable: string[] = [];
  /** Pages that answered 200 or 304. */
  fetched = 0;
  disallowed = 0;
  private readonly hashes = new Set<string>();

  /** `pipelineKey`: the text pipeline the pages' sections are hashed under (`textPipelineKey`). */
  constructor(private readonly userAgent: string, private readonly pipelineKey: string = DEFAULT_PIPELINE_KEY) {}

  /** A page read now; a page without text, or the same text under another URL, is not indexed. */
  add(url: string, section: SourceSection, page: Omit<WebsitePage, 'url' | 'sectionHash' | 'textBytes'>): void {
    if (section.units.length === 0) return;
    // The hash of the section as it will be stored (run-ingestion hashes the stored form too).
    const storable = toStorableOutput({ sections: [section] }).sections[0]!;
    const hash = sectionHash(storable, this.pipelineKey);
    if (this.hashes.has(hash)) return;
    this.hashes.add(hash);
    this.sections.push(storable);
    const textBytes = storable.units.reduce((sum, unit) => sum + Buffer.byteLength(unit.text), 0);
    this.pages.push({ ...page, url, sectionHash: hash, textBytes });
  }

  /** A page indexed before whose chunks stay as they are. */
  keep(page: WebsitePage): void {
    if (this.hashes.has(page.sectionHash)) return;
    this.hashes.add(page.sectionHash);
    this.keptHashes.push(page.sectionHash);
    this.pages.push(page);
  }

  /**
   * The crawl's output, when any page is indexed.
   * @throws IngestionFailedError when no page could be fetched or read; NoTextFoundError when robots.txt disallows every page or no page has text
   */
  toOutput(): ReaderOutput {
    if (this.pages.length > 0) return { sections: this.sections, keptHashes: this.keptHashes, pages: this.pages };
    if (this.fetched === 0 && this.failures.length > 0) throw new IngestionFailedError(`no page could be fetched: ${this.failures.slice(0, 3).join('; ')}`);
    // Pages the parser refused are a failure, not an absence of text.
    if (this.unreadable.length > 0) throw new IngestionFailedError(`no page could be read: ${this.unreadable.slice(0, 3).join('; ')}`);
    if (this.fetched === 0 && this.disallowed > 0) throw new NoTextFoundError(`robots.txt disallows every page for the user agent ${this.userAgent}`);
    throw new NoTextFoundError('the crawled pages contain no text');
  }
}
