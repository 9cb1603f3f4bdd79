import fs from 'node:fs/promises';
import { load } from 'cheerio';
import { parse as parseCsv } from 'csv-parse/sync';
import { Parser as HtmlTokenizer } from 'htmlparser2';
import mammoth from 'mammoth';
import type { DocumentFormat } from '@parley/shared';
import { IngestionFailedError, NoTextFoundError, type ReaderOutput, type SourceSection } from '../ingestion-types.js';
import { extractPageText } from './extract-page-text.js';
import { checkZip, readZipTexts } from './read-zip.js';

/** Limits of the text formats: bytes read, HTML nesting, CSV rows, columns and field size. */
export const DOCUMENT_LIMITS = { textBytes: 50 * 1024 * 1024, htmlDepth: 1_000, csvRows: 20_000, csvColumns: 200, csvFieldChars: 20_000 } as const;

const MB = 1024 * 1024;
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

async function readText(filePath: string): Promise<string> {
  const { size } = await fs.stat(filePath);
  if (size > DOCUMENT_LIMITS.textBytes) throw new IngestionFailedError(`a text file is read up to ${DOCUMENT_LIMITS.textBytes / MB} MB; this one is ${Math.ceil(size / MB)} MB`);
  return (await fs.readFile(filePath, 'utf8')).replace(/^\uFEFF/, '');
}

/** One section of Markdown-like lines (headings, `- ` items and `| a | b |` rows keep their structure). */
const oneSection = (lines: string[], provenance: SourceSection['provenance'] = {}): SourceSection => ({
  provenance, units: lines.map((line) => line.trim()).filter(Boolean).map((text) => ({ text })),
});

/** The deepest element nesting of an HTML page, read by a streaming tokenizer (no tree is built). */
function htmlDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  const tokenizer = new HtmlTokenizer({
    onopentag(name) {
      if (VOID_ELEMENTS.has(name)) return;
      depth++;
      deepest = Math.max(deepest, depth);
    },
    onclosetag(name) {
      if (!VOID_ELEMENTS.has(name)) depth = Math.max(0, depth - 1);
    },
  }, { decodeEntities: false });
  tokenizer.end(html);
  return deepest;
}

/** An HTML page's readable text as Markdown-like lines; a page nested deeper than the limit fails. */
function htmlSection(html: string): SourceSection {
  const depth = htmlDepth(html);
  if (depth > DOCUMENT_LIMITS.htmlDepth) {
    throw new IngestionFailedError(`the HTML nests elements ${depth} deep; at most ${DOCUMENT_LIMITS.htmlDepth} are read`);
  }
  return oneSection(extractPageText(html).units.map((unit) => unit.text));
}

/** A Word document: mammoth's HTML (headings, lists and tables as Word styled them), read like a page. */
async function readDocx(filePath: string): Promise<SourceSection[]> {
  await checkZip(filePath);
  const { value } = await mammoth.convertToHtml({ path: filePath });
  return [htmlSection(value)];
}

/** A slide's lines: the title as a heading, body paragraphs as items, tables as rows. */
function slideLines(xml: string): string[] {
  const $ = load(xml, { xml: true });
  const lines: string[] = [];
  const paragraphText = (element: Parameters<typeof $>[0]) => $(element).find('a\\:t').toArray().map((t) => $(t).text()).join('').replace(/\s+/g, ' ').trim();
  $('p\\:sp, p\\:graphicFrame').each((_, shape) => {
    if (shape.tagName === 'p:graphicFrame') {
      $(shape).find('a\\:tr').each((_i, row) => {
        const cells = $(row).children('a\\:tc').toArray().map((cell) => paragraphText(cell).replace(/\|/g, '/'));
        if (cells.some(Boolean)) lines.push(`| ${cells.join(' | ')} |`);
      });
      return;
    }
    const placeholder = $(shape).find('p\\:nvPr > p\\:ph').first();
    const type = placeholder.attr('type');
    const isTitle = type === 'title' || type === 'ctrTitle';
    const isBody = placeholder.length > 0 && !isTitle && type !== 'subTitle';
    $(shape).find('a\\:p').each((_i, paragraph) => {
      const text = paragraphText(paragraph);
      if (!text) return;
      const bulleted = $(paragraph).find('a\\:pPr > a\\:buChar, a\\:pPr > a\\:buAutoNum').length > 0;
      lines.push(isTitle ? `# ${text}` : isBody || bulleted ? `- ${text}` : text);
    });
  });
  return lines;
}

/** PowerPoint slides, one section per slide (its number as the passage's page). */
async function readPptx(filePath: string): Promise<SourceSection[]> {
  await checkZip(filePath);
  const slidePath = /^ppt\/slides\/slide(\d+)\.xml$/;
  const slides = await readZipTexts(filePath, (name) => slidePath.test(name));
  return [...slides].map(([name, xml]) => ({ number: Number(slidePath.exec(name)![1]), xml }))
    .sort((a, b) => a.number - b.number)
    .map(({ number, xml }) => oneSection(slideLines(xml), { page: number }));
}

/** The separator of a CSV's first line: the most frequent of comma, semicolon and tab outside quotes. */
function csvDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/)).replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((separator) => ({ separator, count: firstLine.split(separator).length }));
  return counts.sort((a, b) => b.count - a.count)[0]!.separator;
}

/** A CSV: each row one section (so one passage), written "Header: value; Header: value". */
function readCsv(text: string): SourceSection[] {
  let records: string[][];
  try {
    records = parseCsv(text, {
      delimiter: csvDelimiter(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true,
      max_record_size: DOCUMENT_LIMITS.csvFieldChars, to_line: DOCUMENT_LIMITS.csvRows + 2,
    }) as string[][];
  } catch (err) {
    throw new IngestionFailedError(`the CSV could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (records.length > DOCUMENT_LIMITS.csvRows + 1) throw new IngestionFailedError(`a CSV is read up to ${DOCUMENT_LIMITS.csvRows.toLocaleString('en')} rows; this one has more`);
  const [header = [], ...rows] = records;
  if (header.length > DOCUMENT_LIMITS.csvColumns) throw new IngestionFailedError(`a CSV is read up to ${DOCUMENT_LIMITS.csvColumns} columns; this one has ${header.length}`);
  const names = header.map((name, i) => name.replace(/\s+/g, ' ').trim() || `Column ${i + 1}`);
  return rows.map((row) => row.slice(0, names.length)
    .map((value, i) => ({ name: names[i]!, value: value.replace(/\s+/g, ' ').replace(/;/g, ',').trim() }))
    .filter(({ value }) => value !== '')
    .map(({ name, value }) => `${name}: ${value}`).join('; '))
    .filter(Boolean)
    .map((text) => ({ provenance: {}, units: [{ text }] }));
}

/**
 * Reads an uploaded document (run in the parser process). Headings, list items and table rows
 * come out as Markdown-like lines, so the chunker keeps their structure as for PDFs and pages.
 * @throws IngestionFailedError for a file over the limits (a zip bomb, a huge CSV, deep HTML) or
 * unreadable; NoTextFoundError when it holds no text.
 */
export async function readDocument(filePath: string, format: DocumentFormat): Promise<ReaderOutput> {
  let sections: SourceSection[];
  if (format === 'DOCX') sections = await readDocx(filePath);
  else if (format === 'PPTX') sections = await readPptx(filePath);
  else {
    const text = await readText(filePath);
    if (format === 'HTML') sections = [htmlSection(text)];
    else if (format === 'CSV') sections = readCsv(text);
    // Markdown and plain text as a text resource's: one unit, blank lines and all.
    else sections = text.trim() ? [{ provenance: {}, units: [{ text }] }] : [];
  }
  sections = sections.filter((section) => section.units.length > 0);
  if (sections.length === 0) throw new NoTextFoundError('the document holds no text');
  return { sections };
}
