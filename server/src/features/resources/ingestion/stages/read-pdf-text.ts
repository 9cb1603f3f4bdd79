import fs from 'node:fs/promises';
import { getDocumentProxy } from 'unpdf';
import { IngestionFailedError, NoTextFoundError, type ReaderOutput, type SourceSection } from '../ingestion-types.js';

/**
 * Reads a PDF's text page by page (unpdf 1.7, pdf.js underneath), keeping page numbers.
 * @throws NoTextFoundError for a PDF without a text layer (scanned images); IngestionFailedError
 * for a file pdf.js cannot open.
 */
export async function readPdf(filePath: string, signal?: AbortSignal): Promise<ReaderOutput> {
  const data = new Uint8Array(await fs.readFile(filePath));
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(data);
  } catch (err) {
    throw new IngestionFailedError(`the PDF could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const sections: SourceSection[] = [];
    for (let page = 1; page <= document.numPages; page++) {
      signal?.throwIfAborted();
      const content = await (await document.getPage(page)).getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .trim();
      if (text) sections.push({ provenance: { page }, units: [{ text }] });
    }
    if (sections.length === 0) throw new NoTextFoundError(`the PDF has no text layer (${document.numPages} pages of images?)`);
    return { sections };
  } finally {
    await document.destroy();
  }
}
