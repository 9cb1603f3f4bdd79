import fs from 'node:fs/promises';
import { getDocumentProxy } from 'unpdf';
import { IngestionFailedError, type SourceSection } from '../ingestion-types.js';
import { layOut, pageText, typeSizes, type PageLayout } from './pdf-page-layout.js';

/** A PDF's text layer: a section per page that has text, and the pages that have none (scans). */
export interface PdfText {
  pageCount: number;
  sections: SourceSection[];
  pagesWithoutText: number[];
}

/**
 * Reads a PDF's text layer page by page (unpdf 1.7, pdf.js underneath), keeping page numbers,
 * headings and tables (pdf-page-layout.ts).
 * @throws IngestionFailedError for a file pdf.js cannot open.
 */
export async function readPdfText(filePath: string, signal?: AbortSignal): Promise<PdfText> {
  const data = new Uint8Array(await fs.readFile(filePath));
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(data);
  } catch (err) {
    throw new IngestionFailedError(`the PDF could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const pages: PageLayout[] = [];
    for (let page = 1; page <= document.numPages; page++) {
      signal?.throwIfAborted();
      const content = await (await document.getPage(page)).getTextContent();
      pages.push(layOut(content.items.flatMap((item) => ('str' in item
        ? [{ str: item.str, x: item.transform[4], y: item.transform[5], width: item.width, size: Math.hypot(item.transform[2], item.transform[3]), hasEOL: item.hasEOL }]
        : []))));
    }
    const sizes = typeSizes(pages);
    const sections: SourceSection[] = [];
    const pagesWithoutText: number[] = [];
    pages.forEach((page, index) => {
      const text = pageText(page, sizes);
      if (text) sections.push({ provenance: { page: index + 1 }, units: [{ text }] });
      else pagesWithoutText.push(index + 1);
    });
    return { pageCount: document.numPages, sections, pagesWithoutText };
  } finally {
    await document.destroy();
  }
}
