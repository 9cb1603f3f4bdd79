import { load, type CheerioAPI } from 'cheerio/slim';
import { hasChildren, isTag, isText, type AnyNode, type Document, type Element } from 'domhandler';
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';
import type { TextUnit } from '../ingestion-types.js';

/** Page furniture that is never knowledge: navigation, headers, footers, scripts, forms, banners. */
const BOILERPLATE = [
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'form', 'button', 'select',
  'nav', 'header', 'footer', 'aside', '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[role=search]',
  '[aria-hidden=true]', '[hidden]', '.cookie-banner', '.cookie-consent', '#cookie-banner', '.skip-link',
].join(', ');
/** Elements whose text starts and ends a line. */
const BLOCKS = new Set(['p', 'div', 'section', 'article', 'main', 'li', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'tr', 'td', 'th', 'figcaption', 'table', 'ul', 'ol']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export interface ExtractOptions {
  /** Keep only these parts (decisions.md: `targetSelectors`). */
  targetSelectors?: string[];
  /** Drop these parts first (`removeSelectors`). */
  removeSelectors?: string[];
}

/**
 * The readable text of an HTML page, one unit per block (paragraph, heading, list item), with
 * navigation and boilerplate stripped. Without target selectors it keeps `main`/`article` when
 * the page has one, else the body. Given the page's URL (`linksFrom`), it also returns the page's
 * links, read before navigation is stripped (discovery follows them).
 *
 * The page is parsed as browsers do (parse5, as cheerio's default load), and its text is written
 * in one walk of the tree (`blockText`); until issue 38 it was written by mutating the tree once
 * per block element, which cost several times the parse (fixtures/extract-page-text-mutating.ts,
 * the reference the golden test compares with).
 */
export function extractPageText(html: string, options: ExtractOptions = {}, linksFrom?: string): { title?: string; units: TextUnit[]; links?: string[] } {
  const $ = load(parse(html, { treeAdapter: adapter, scriptingEnabled: true }) as Document);
  const title = $('title').first().text().replace(/\s+/g, ' ').trim() || undefined;
  const links = linksFrom === undefined ? undefined : pageLinks($, linksFrom);
  for (const selector of options.removeSelectors ?? []) $(selector).remove();
  const targets = options.targetSelectors?.length ? options.targetSelectors : undefined;
  if (!targets) $(BOILERPLATE).remove();
  const selector = targets ? targets.join(', ') : 'main, article, [role=main]';
  // Nested roots: keep the outermost only, so no text is taken twice.
  const roots: AnyNode[] = $(selector).toArray().filter((element) => !(isTag(element) && replaced(element)) && $(element).parents(selector).length === 0);
  if (!targets && roots.length === 0) roots.push($('body').get(0) ?? $.root().get(0)!);
  const text = roots.map((root) => blockText(root)).join('\n');
  const units = text.split(/\n+/).map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean).map((line) => ({ text: line }));
  return { title, units, ...(links ? { links } : {}) };
}

/**
 * The absolute http(s) targets of a page's links (`<a>`, `<area>`), resolved against `<base href>`
 * and without fragments, in page order; none when `<meta name="robots">` says `nofollow`.
 */
function pageLinks($: CheerioAPI, pageUrl: string): string[] {
  const robots = $('meta[name="robots" i]').attr('content') ?? '';
  if (/\b(nofollow|none)\b/i.test(robots)) return [];
  let base: URL;
  try {
    base = new URL($('base[href]').attr('href') ?? pageUrl, pageUrl);
  } catch {
    base = new URL(pageUrl);
  }
  const links = new Set<string>();
  $('a[href], area[href]').each((_, element) => {
    try {
      const url = new URL(($(element).attr('href') ?? '').trim(), base);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
      url.hash = '';
      links.add(url.href);
    } catch {
      /* not a URL: not a link to follow */
    }
  });
  return [...links];
}

/*
 * How a page's structure is written, the way Markdown writes it, so the chunker reads it (section
 * paths, items, rows) like a text resource's:
 * - a line break is a new line;
 * - a heading is `## its text` on a line of its own, its text on one line;
 * - a list item starts a line with `- `;
 * - a table row with cells is `| a | b |` on a line of its own, each cell's text on one line (a
 *   cell's `|` written `/`);
 * - every other block element (paragraph, div, cell outside a row…) starts and ends a line.
 * What is inside a heading or a row is only read as its text.
 */

/** Whether a row is written as a pipe row: it has cells. */
const isRow = (element: Element) => element.name === 'tr' && element.children.some((child) => isTag(child) && (child.name === 'td' || child.name === 'th'));

/** Whether an element is written as part of an ancestor's text (inside a heading or a row), or is a line break. */
function replaced(element: Element): boolean {
  if (element.name === 'br') return true;
  for (let parent = element.parent; parent; parent = parent.parent) {
    if (isTag(parent) && (HEADINGS.has(parent.name) || isRow(parent))) return true;
  }
  return false;
}

type Mode = 'heading' | 'cell' | 'block';

/** A heading as one line: `\n## its text\n`. */
const headingLine = (element: Element) => `\n${'#'.repeat(Number(element.name.slice(1)))} ${textOf(element.children, 'heading').replace(/\s+/g, ' ').trim()}\n`;

/**
 * The text of nodes: inside a heading only line breaks count; inside a cell also headings and list
 * items; elsewhere every block, heading, list item and row.
 */
function textOf(nodes: readonly AnyNode[], mode: Mode): string {
  let text = '';
  for (const node of nodes) {
    if (isText(node)) text += node.data;
    else if (isTag(node)) text += elementText(node, mode);
    // A template's content (a document fragment) is read like any other part of the page.
    else if (hasChildren(node)) text += textOf(node.children, mode);
  }
  return text;
}

function elementText(element: Element, mode: Mode): string {
  const { name } = element;
  if (name === 'br') return '\n';
  if (mode === 'heading') return textOf(element.children, mode);
  if (HEADINGS.has(name)) return mode === 'cell' ? headingLine(element) : `\n${headingLine(element)}\n`;
  if (name === 'li') return mode === 'cell' ? `\n- ${textOf(element.children, mode)}` : `\n\n- ${textOf(element.children, mode)}\n`;
  if (mode === 'cell') return textOf(element.children, mode);
  if (isRow(element)) {
    const cells = element.children.filter((child): child is Element => isTag(child) && (child.name === 'td' || child.name === 'th'))
      .map((cell) => textOf(cell.children, 'cell').replace(/\s+/g, ' ').replace(/\|/g, '/').trim());
    return `\n\n| ${cells.join(' | ')} |\n\n`;
  }
  const inner = textOf(element.children, mode);
  return BLOCKS.has(name) ? `\n${inner}\n` : inner;
}

/** The text of a root (the body, `main`, a target) with its structure marked. */
function blockText(root: AnyNode): string {
  if (isTag(root)) return elementText(root, 'block');
  return hasChildren(root) ? textOf(root.children, 'block') : '';
}

/** Whether a CSS selector is one cheerio accepts (checked when the resource is created). */
export function isValidSelector(selector: string): boolean {
  try {
    load('<p></p>')(selector);
    return true;
  } catch {
    return false;
  }
}
