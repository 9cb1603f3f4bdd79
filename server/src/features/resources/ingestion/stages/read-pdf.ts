import { yieldPoint } from '../../../../jobs/job-yield.js';
import { NoTextFoundError, type ReaderOutput, type SourceSection } from '../ingestion-types.js';
import type { Parser } from '../sandbox/parser-process.js';
import { withoutPageFurniture } from './pdf-page-furniture.js';

/** At most this many pages of one PDF are read by OCR unless OCR_MAX_PAGES says otherwise. */
export const DEFAULT_MAX_OCR_PAGES = 100;
/**
 * OCR of one PDF stops after this long unless OCR_MAX_SECONDS says otherwise (the pages read so
 * far are kept): the parser's time limit bounds each page, and a hostile scan of 100 pages at
 * that limit would otherwise hold a job slot for hours.
 */
export const DEFAULT_MAX_OCR_MS = 10 * 60 * 1000;

/** How a PDF is read: through the parser child, with at most `maxOcrPages` pages read by OCR (0: none). */
export interface ReadPdfOptions {
  parser: Parser;
  maxOcrPages?: number;
  /** The OCR time of the whole file; the page under way when it runs out is the last one read. */
  maxOcrMs?: number;
  /** The clock (tests give a virtual one). */
  now?: () => number;
  signal?: AbortSignal;
  log?: (message: string, details: Record<string, unknown>) => void;
  /** The share of the pages to OCR read so far (0–1), after each one; not called for a PDF that needs no OCR. */
  progress?: (fraction: number) => void;
}

/**
 * Reads a PDF into one section per page: the text layer where a page has one (kept as it is but
 * for running headers and footers with the page number: pdf-page-furniture.ts), OCR for the
 * pages without (scans), each OCR page a request of its own so that the
 * parser's time and memory limits apply per page. A page the limits refuse is skipped; the
 * others are still read.
 * @throws NoTextFoundError when neither the text layer nor OCR finds any text.
 */
export async function readPdf(filePath: string, {
  parser, maxOcrPages = DEFAULT_MAX_OCR_PAGES, maxOcrMs = DEFAULT_MAX_OCR_MS, now = Date.now, signal, log, progress,
}: ReadPdfOptions): Promise<ReaderOutput> {
  const { pageCount, sections, pagesWithoutText } = await parser.call('readPdfText', filePath).catch((err: unknown) => {
    // An abort closes the parser: the job ends with the abort's reason, not the closed parser's.
    signal?.throwIfAborted();
    throw err;
  });
  const scanned = pagesWithoutText.slice(0, Math.max(0, maxOcrPages));
  if (scanned.length < pagesWithoutText.length) {
    log?.('OCR page limit reached: the remaining pages without text are not read', { pagesWithoutText: pagesWithoutText.length, maxOcrPages });
  }
  const read: SourceSection[] = [];
  let refusal: Error | undefined;
  const ocrStarted = now();
  for (const [index, page] of scanned.entries()) {
    // Between two OCR pages: another organisation's job may take this slot for a while (job-yield.ts).
    await yieldPoint();
    signal?.throwIfAborted();
    if (index > 0 && now() - ocrStarted >= maxOcrMs) {
      log?.('OCR time limit reached: the remaining pages without text are not read', { pagesRead: index, pagesWithoutText: pagesWithoutText.length, maxOcrMs });
      break;
    }
    if (index === 0) progress?.(0);
    try {
      const text = await parser.call('ocrPdfPage', filePath, page);
      if (text) read.push({ provenance: { page }, units: [{ text }] });
    } catch (err) {
      signal?.throwIfAborted();
      refusal = err instanceof Error ? err : new Error(String(err));
      log?.('OCR of a page failed; the other pages are still read', { page, reason: refusal.message });
    }
    progress?.((index + 1) / scanned.length);
  }
  const all = withoutPageFurniture([...sections, ...read].sort((a, b) => (a.provenance.page ?? 0) - (b.provenance.page ?? 0)));
  if (all.length > 0) return { sections: all };
  if (refusal) throw refusal;
  if (pageCount === 0) throw new NoTextFoundError('the PDF has no pages');
  if (scanned.length === 0) throw new NoTextFoundError('the PDF has no text layer and OCR is turned off');
  throw new NoTextFoundError(`the PDF has no text layer and OCR found no text on ${scanned.length === 1 ? 'its page' : `${scanned.length} pages`}`);
}
