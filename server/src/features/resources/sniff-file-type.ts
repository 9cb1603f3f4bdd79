import fs from 'node:fs/promises';
import type { DocumentFormat } from '@parley/shared';
import { sniffDocument } from './sniff-document.js';

/**
 * The file types an upload may have, recognised by content (decisions.md § Resources and
 * processing); `DOCUMENT` (Word, slides, Markdown, text, HTML, CSV) is an extension.
 */
export type UploadType = 'PDF' | 'VIDEO' | 'DOCUMENT';

/** A sniffed upload: its type, and a document's format. */
export type SniffedUpload = { type: 'PDF' | 'VIDEO' } | { type: 'DOCUMENT'; format: DocumentFormat };

/** Returns the type of the given leading bytes: `%PDF-`, or an MP4 `ftyp` box; else undefined. */
export function sniffFileType(head: Uint8Array): 'PDF' | 'VIDEO' | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 5 && ascii(0, 5) === '%PDF-') return 'PDF';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return 'VIDEO';
  return undefined;
}

/** Reads the first bytes of a file on disk and sniffs its type. */
export async function sniffFile(filePath: string): Promise<'PDF' | 'VIDEO' | undefined> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return sniffFileType(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The type of an uploaded file by content: a PDF, an MP4, else a document format; undefined for anything else. */
export async function sniffUpload(filePath: string): Promise<SniffedUpload | undefined> {
  const type = await sniffFile(filePath);
  if (type) return { type };
  const format = await sniffDocument(filePath);
  return format && { type: 'DOCUMENT', format };
}
