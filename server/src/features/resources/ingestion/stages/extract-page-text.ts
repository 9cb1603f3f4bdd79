import { load, type CheerioAPI } from 'cheerio';
import type { TextUnit } from '../ingestion-types.js';

/** Page furniture that is never knowledge: navigation, headers, footers, scripts, forms, banners. */
const BOILERPLATE = [
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'form', 'button', 'select',
  'nav', 'header', 'footer', 'aside', '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[role=search]',
  '[aria-hidden=true]', '[hidden]', '.cookie-banner', '.cookie-consent', '#cookie-banner', '.skip-link',
].join(', ');
const BLOCKS = 'p, div, section, article, main, li, dt, dd, h1, h2, h3, h4, h5, h6, pre, blockquote, tr, td, th, figcaption, table, ul, ol';

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
 */
export function extractPageText(html: string, options: ExtractOptions = {}, linksFrom?: string): { title?: string; units: TextUnit[]; links?: string[] } {
  const $ = load(html);
  const title = $('title').first().text().replace(/\s+/g, ' ').trim() || undefined;
  const links = linksFrom === undefined ? undefined : pageLinks($, linksFrom);
  for (const selector of options.removeSelectors ?? []) $(selector).remove();
  const targets = options.targetSelectors?.length ? options.targetSelectors : undefined;
  if (!targets) $(BOILERPLATE).remove();
  $('br').replaceWith('\n');
  markStructure($);
  $(BLOCKS).each((_, element) => { $(element).prepend('\n').append('\n'); });
  let roots = targets ? $(targets.join(', ')) : $('main, article, [role=main]');
  if (!targets) {
    // Nested main/article: keep the outermost only, so no text is taken twice.
    roots = roots.filter((_, element) => $(element).parents('main, article, [role=main]').length === 0);
    if (roots.length === 0) roots = $('body').length ? $('body') : $.root();
  } else {
    roots = roots.filter((_, element) => $(element).parents(targets.join(', ')).length === 0);
  }
  const text = roots.toArray().map((element) => $(element).text()).join('\n');
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

/**
 * Marks headings, list items and table rows the way Markdown writes them (`## `, `- `, `| a | b |`),
 * so the chunker reads the page's structure (section paths, items, rows) like a text resource's.
 */
function markStructure($: CheerioAPI): void {
  $('h1, h2, h3, h4, h5, h6').each((_, element) => {
    const level = Number(element.tagName.slice(1));
    $(element).text(`\n${'#'.repeat(level)} ${$(element).text().replace(/\s+/g, ' ').trim()}\n`);
  });
  $('li').each((_, element) => { $(element).prepend('\n- '); });
  $('tr').each((_, element) => {
    const cells = $(element).children('td, th').toArray().map((cell) => $(cell).text().replace(/\s+/g, ' ').replace(/\|/g, '/').trim());
    if (cells.length > 0) $(element).text(`\n| ${cells.join(' | ')} |\n`);
  });
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
