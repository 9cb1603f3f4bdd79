import fs from 'node:fs/promises';
import yauzl from 'yauzl';
import type { DocumentFormat } from '@parley/shared';

/** Bytes read to tell a text file's format (and that it is text at all). */
const TEXT_SNIFF_BYTES = 64 * 1024;
/** Entries of a zip looked at to find a DOCX's or PPTX's main part (an Office file has a few dozen). */
const MAX_ZIP_ENTRIES_SNIFFED = 5_000;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** The names of a zip's entries, from its central directory alone (nothing is decompressed). */
function zipEntryNames(filePath: string): Promise<string[]> {
  return new Promise((resolve) => {
    yauzl.open(filePath, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return resolve([]);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        if (names.length >= MAX_ZIP_ENTRIES_SNIFFED) {
          zip.close();
          resolve(names);
        } else zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', () => resolve(names));
      zip.readEntry();
    });
  });
}

/** A DOCX (`word/document.xml`) or PPTX (`ppt/presentation.xml`) by its zip entries; else undefined. */
async function sniffOfficeZip(filePath: string): Promise<DocumentFormat | undefined> {
  const names = new Set(await zipEntryNames(filePath));
  if (!names.has('[Content_Types].xml')) return undefined;
  if (names.has('word/document.xml')) return 'DOCX';
  if (names.has('ppt/presentation.xml')) return 'PPTX';
  return undefined;
}

/**
 * Whether leading bytes are text: UTF-8 (a character cut at the end of the sample is fine) with no
 * NUL and almost no other control characters.
 */
function decodeTextSample(head: Buffer, complete: boolean): string | undefined {
  if (head.includes(0)) return undefined;
  let sample = head;
  if (!complete) {
    // Drop a UTF-8 sequence cut by the sample's end (at most 3 continuation bytes back).
    let cut = sample.length;
    for (let i = 1; i <= 3 && cut - i >= 0; i++) {
      const byte = sample[cut - i]!;
      if ((byte & 0xc0) === 0xc0) { cut -= i; break; }
      if ((byte & 0x80) === 0) break;
    }
    sample = sample.subarray(0, cut);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample);
  } catch {
    return undefined;
  }
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Tab, line feed, form feed and carriage return are text; the other C0 controls and DEL are not.
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f) controls++;
  }
  return controls > text.length / 100 ? undefined : text.replace(/^\uFEFF/, '');
}

/** The WHATWG MIME sniffing rule for HTML: the first tag (after blanks and comments) is an HTML one. */
const HTML_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|main|article|section|meta)[\s>/]/i;

/** Markdown's marks: headings, list items, tables, fenced code, links and emphasis. */
const MARKDOWN_MARKS = [/^#{1,6}\s+\S/m, /^\s{0,3}[-*+]\s+\S/m, /^\s{0,3}\d+[.)]\s+\S/m, /^\|.*\|\s*$/m, /^```/m, /\[[^\]\n]+\]\([^)\s]+\)/, /\*\*[^*\n]+\*\*/];

/** Whether text reads as CSV: at least two lines, all with the same number (2 or more) of comma, semicolon or tab separated fields. */
function looksLikeCsv(text: string, complete: boolean): boolean {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (!complete) lines.pop();
  const rows = lines.filter((line) => line.trim() !== '').slice(0, 50);
  if (rows.length < 2 || rows.some((row) => row.includes('"'))) return rows.length >= 2 && looksLikeQuotedCsv(rows);
  return [',', ';', '\t'].some((separator) => {
    const counts = new Set(rows.map((row) => row.split(separator).length));
    const [count] = counts;
    return counts.size === 1 && count !== undefined && count >= 2 && rows[0]!.split(separator).every((cell) => cell.trim().length <= 100);
  });
}

/** CSV whose fields may be quoted: the same count of separators outside quotes on every line. */
function looksLikeQuotedCsv(rows: string[]): boolean {
  const fields = (row: string, separator: string) => {
    let count = 1;
    let quoted = false;
    for (const char of row) {
      if (char === '"') quoted = !quoted;
      else if (char === separator && !quoted) count++;
    }
    return quoted ? -1 : count;
  };
  return [',', ';', '\t'].some((separator) => {
    const counts = new Set(rows.map((row) => fields(row, separator)));
    const [count] = counts;
    return counts.size === 1 && count !== undefined && count >= 2;
  });
}

/** The format of a text sample: HTML, CSV, Markdown, else plain text. */
export function sniffTextFormat(text: string, complete = true): DocumentFormat {
  if (HTML_START.test(text)) return 'HTML';
  const marks = MARKDOWN_MARKS.filter((mark) => mark.test(text)).length;
  if (/^#{1,6}\s+\S/m.test(text) || marks >= 2) return 'MARKDOWN';
  if (looksLikeCsv(text, complete)) return 'CSV';
  return 'PLAIN_TEXT';
}

/**
 * The document format of a file that is neither a PDF nor an MP4, by content: a zip holding a
 * Word document or a presentation, else UTF-8 text read as HTML, CSV, Markdown or plain text.
 * Undefined for anything else (images, other binaries, text in another encoding).
 */
export async function sniffDocument(filePath: string): Promise<DocumentFormat | undefined> {
  const handle = await fs.open(filePath, 'r');
  let head: Buffer;
  let complete: boolean;
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(TEXT_SNIFF_BYTES, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
    complete = bytesRead >= size;
  } finally {
    await handle.close();
  }
  if (head.length === 0) return undefined;
  if (ZIP_MAGIC.every((byte, i) => head[i] === byte)) return sniffOfficeZip(filePath);
  const text = decodeTextSample(head, complete);
  return text === undefined || text.trim() === '' ? undefined : sniffTextFormat(text, complete);
}
