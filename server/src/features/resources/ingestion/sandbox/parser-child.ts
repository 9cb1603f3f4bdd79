import type { DocumentFormat } from '@parley/shared';
import { chunkSections, type ChunkOptions } from '../stages/chunk-text.js';
import { extractPageText, type ExtractOptions } from '../stages/extract-page-text.js';
import { readDocument } from '../stages/read-document.js';
import { ocrPdfPage } from '../stages/ocr-pdf-page.js';
import { readPdfText } from '../stages/read-pdf-text.js';
import { readSitemap } from '../stages/read-sitemap.js';
import { readVideoCues } from '../stages/read-video.js';
import { IngestionFailedError, NoTextFoundError, type SourceSection } from '../ingestion-types.js';

/**
 * The parser child process: reads untrusted files and pages for the service, one request at a
 * time over IPC, so a hostile input can only exhaust this process (which the parent kills at its
 * time and memory limits), never the service's event loop.
 */
const operations = {
  readPdfText: (filePath: string) => readPdfText(filePath),
  ocrPdfPage: (filePath: string, page: number) => ocrPdfPage(filePath, page),
  readVideoCues: (filePath: string) => readVideoCues(filePath),
  readDocument: (filePath: string, format: DocumentFormat) => readDocument(filePath, format),
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
