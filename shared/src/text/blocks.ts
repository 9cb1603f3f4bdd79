import { splitParagraph, type SplitOptions } from './sentences.js';

/** One structural block of a document: a heading, a list item, a table row or a paragraph. */
export interface TextBlock {
  kind: 'heading' | 'item' | 'row' | 'paragraph';
  /** The block's text without its Markdown marker (`#`, `-`, `|`). */
  text: string;
  /** Heading level (1–6), for headings. */
  level?: number;
  /** The headings above the block, outermost first. */
  section: string[];
}

/** One sentence of a document with where it sits: its section path and the kind of block it came from. */
export interface TextSegment {
  text: string;
  kind: Exclude<TextBlock['kind'], 'heading'>;
  section: string[];
  /** Index of its block, so neighbours in the same paragraph can be told apart from the next one. */
  block: number;
}

/** The separator of a section path, as shown in citations: "FAQ › Returns". */
export const SECTION_SEPARATOR = ' › ';

// A line is trimmed before it is read. The title is everything after the marker: its closing
// `#`s are dropped by `headingTitle`, not by the pattern (`(.+?)\s*#*\s*$` backtracked cubically
// on a long run of spaces).
const HEADING = /^(#{1,6})\s+(\S.*)$/s;
const ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/;
const ROW = /^\s*\|(.*)\|?\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
/** A table row as the chunker writes it: "Header: value; Header: value" (two cells or more). */
const WRITTEN_ROW = /^[^:;]{1,60}: [^;]*(?:; [^:;]{1,60}: [^;]*)+$/;
const SENTENCE_END = /[.!?…。！？؟:;]["'”’)\]]?$/;

/** A short line standing alone, without closing punctuation, between sentences: a plain-text heading ("Fire safety"). */
function looksLikeHeading(line: string, previous: string | undefined, next: string | undefined): boolean {
  const words = line.split(/\s+/).length;
  // A document's or page's first line may be a longer title ("Willow & Wick - Candle Care and Safety Guide").
  const [maxWords, maxChars] = previous === undefined ? [12, 90] : [7, 60];
  if (words > maxWords || line.length > maxChars || SENTENCE_END.test(line) || /[,]$/.test(line)) return false;
  // What follows a heading begins as a sentence, a list or a table row does.
  if (!/^[\p{Lu}\p{N}]/u.test(line) || next === undefined || !/^[\p{Lu}\p{N}"“'‘(|]/u.test(next)) return false;
  return previous === undefined || SENTENCE_END.test(previous) || HEADING.test(previous);
}

/** A Markdown heading's title: without its closing `#`s (an ATX heading's optional closing sequence) or emphasis marks. */
function headingTitle(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  let hashes = end;
  while (hashes > 0 && text[hashes - 1] === '#') hashes--;
  // "Title ##" closes; "C#" keeps its hash, and so does a title made only of hashes.
  if (hashes < end && hashes > 0 && /\s/.test(text[hashes - 1]!)) end = hashes;
  return text.slice(0, end).trimEnd().replace(/[*_`]/g, '');
}

function tableCells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/**
 * Reads Markdown-like text into blocks: `#` headings (and short stand-alone title lines, as PDFs
 * and captions give them) become the section path of what follows, never text; list items and
 * table rows stay blocks of their own; other lines are joined into paragraphs, so a line wrapped
 * in a PDF joins its sentence. A table row reads "Header: value; Header: value", and a line
 * written that way (a chunk's rows, read again) is a row too.
 */
export function parseBlocks(text: string, options: { hardLineBreaks?: boolean } = {}): TextBlock[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: TextBlock[] = [];
  const path: { level: number; text: string }[] = [];
  let paragraph: string[] = [];
  let header: string[] | undefined;
  const section = () => path.map((heading) => heading.text);
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ').replace(/\s+/g, ' ').trim(), section: section() });
    paragraph = [];
  };
  const enter = (level: number, title: string) => {
    flush();
    while (path.length > 0 && path[path.length - 1]!.level >= level) path.pop();
    path.push({ level, text: title });
    blocks.push({ kind: 'heading', text: title, level, section: section().slice(0, -1) });
  };
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) { flush(); header = undefined; return; }
    const heading = HEADING.exec(line);
    if (heading) { enter(heading[1]!.length, headingTitle(heading[2]!)); header = undefined; return; }
    if (ROW.test(line) && line.includes('|', 1)) {
      flush();
      if (TABLE_RULE.test(line)) return;
      const cells = tableCells(line);
      if (!header) { header = cells; return; }
      const text = cells.map((cell, i) => (header?.[i] ? `${header[i]}: ${cell}` : cell)).filter(Boolean).join('; ');
      blocks.push({ kind: 'row', text, section: section() });
      return;
    }
    header = undefined;
    if (WRITTEN_ROW.test(line)) { flush(); blocks.push({ kind: 'row', text: line, section: section() }); return; }
    const item = ITEM.exec(line);
    if (item) { flush(); blocks.push({ kind: 'item', text: item[1]!.trim(), section: section() }); return; }
    const previous = paragraph.at(-1) ?? (index > 0 ? lines[index - 1]?.trim() || undefined : undefined);
    const next = lines[index + 1]?.trim() || undefined;
    if (looksLikeHeading(line, paragraph.length > 0 ? previous : undefined, next) && (paragraph.length === 0 || SENTENCE_END.test(paragraph.at(-1)!))) {
      enter(7, line);
      return;
    }
    // A line break after a finished sentence ends the paragraph (a chat message's lines, a PDF's paragraphs).
    if (paragraph.length > 0 && (options.hardLineBreaks || SENTENCE_END.test(paragraph.at(-1)!))) flush();
    paragraph.push(line);
  });
  flush();
  return blocks;
}

/**
 * The sentences of structured text with their section paths: paragraphs are split into
 * sentences; a list item or a table row is one segment (cut only when over-long). Headings give
 * context and are never segments themselves.
 */
export function segmentText(text: string, options: SplitOptions & { hardLineBreaks?: boolean } = {}): TextSegment[] {
  const segments: TextSegment[] = [];
  parseBlocks(text, options).forEach((block, index) => {
    if (block.kind === 'heading') return;
    for (const sentence of splitParagraph(block.text, options)) {
      segments.push({ text: sentence, kind: block.kind, section: block.section, block: index });
    }
  });
  return segments;
}

/**
 * The sentences of any text, structure-aware, as plain strings. `hardLineBreaks` ends a sentence
 * at every line break (chat messages); otherwise an unfinished line joins the next (wrapped text).
 */
export function splitSentences(text: string, options: SplitOptions & { hardLineBreaks?: boolean } = {}): string[] {
  return segmentText(text, options).map((segment) => segment.text);
}
