import type { DocumentFormat } from '@parley/shared';
import { chunkSections, type ChunkOptions } from '../stages/chunk-text.js';
import { extractPageText, type ExtractOptions } from '../stages/extract-page-text.js';
import { readSitemap } from '../stages/read-sitemap.js';
import { IngestionFailedError, NoTextFoundError, type SourceSection } from '../ingestion-types.js';

/**
 * The parser child process: reads untrusted files and pages for the service, one request at a
 * time over IPC, so a hostile input can only exhaust this process (which the parent kills at its
 * time and memory limits), never the service's event loop. Web pages, sitemaps and chunking are
 * loaded at start; the readers of PDFs, OCR, videos and documents (pdf.js, tesseract.js, mp4box, mammoth)
 * only when a request needs them, so a process that reads a crawl starts in a fraction of the time.
 */
const operations = {
  readPdfText: async (filePath: string) => (await import('../stages/read-pdf-text.js')).readPdfText(filePath),
  ocrPdfPage: async (filePath: string, page: number) => (await import('../stages/ocr-pdf-page.js')).ocrPdfPage(filePath, page),
  readVideoCues: async (filePath: string) => (await import('../stages/read-video.js')).readVideoCues(filePath),
  readDocument: async (filePath: string, format: DocumentFormat) => (await import('../stages/read-document.js')).readDocument(filePath, format),
  extractPageText: (html: string, options: ExtractOptions, linksFrom?: string) => extractPageText(html, options, linksFrom),
  readSitemap: (body: Uint8Array) => readSitemap(body),
  chunkSections: (sections: SourceSection[], options: ChunkOptions, pipelineKey: string) => chunkSections(sections, options, pipelineKey),
} as const;

export type ParserOperations = typeof operations;

interface Request { id: number; op: keyof ParserOperations; args: unknown[] }

function parseFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return err instanceof IngestionFailedError || err instanceof NoTextFoundError ? message : `the file could not be read: ${message}`;
}

process.on('message', (request: Request) => {
  const run = operations[request.op] as (...args: unknown[]) => unknown;
  Promise.resolve().then(() => run(...request.args)).then(
    (result) => process.send?.({ id: request.id, result }),
    (err: unknown) => process.send?.({
      id: request.id,
      // Parsing local bytes fails the same way every time: a parse error is final, never retried.
      error: { kind: err instanceof NoTextFoundError ? 'no-text' : 'failed', message: parseFailure(err) },
    }),
  );
});
process.on('disconnect', () => process.exit(0));
