import { html, nothing, type TemplateResult } from 'lit';

// A tiny Markdown subset rendered as Lit templates. Text only ever reaches the DOM through Lit's
// text bindings, so nothing from the server is parsed as HTML (architecture.md § Security).

type Inline = string | TemplateResult;

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
// Code, bold, italic, [links](…), bare URLs, e-mail addresses, and phone numbers written
// internationally (+44 20 7946 0958) or in the North American (555) 123-4567 form. An address's
// parts are bounded (RFC 5321), else a long run of letters cost time quadratic in its length.
const INLINE = /(`+)([^`][\s\S]*?)\1|\*\*(\S(?:.*?\S)?)\*\*|\b__(\S(?:.*?\S)?)__\b|\*([^*\s](?:.*?[^*\s])?)\*|\b_([^_\s](?:.*?[^_\s])?)_\b|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<]*[^\s<.,:;"')\]])|\b([\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}\.[a-z]{2,24})\b|(\+\d[\d ().-]{5,18}\d|\(\d{3}\) ?\d{3}-\d{4})(?![\w-])/i;

/** The URL when its protocol is harmless (no `javascript:` or `data:`), else `undefined`. */
export function safeUrl(href: string): string | undefined {
  try {
    const url = new URL(href);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const link = (href: string, label: Inline[]) => {
  const url = safeUrl(href);
  return url ? html`<a href=${url} target="_blank" rel="noopener noreferrer nofollow">${label}</a>` : label;
};

/** Inline Markdown (code, bold, italic, links, bare URLs) as template parts. */
export function renderInline(text: string): Inline[] {
  const parts: Inline[] = [];
  let rest = text;
  for (let match = INLINE.exec(rest); match; match = INLINE.exec(rest)) {
    if (match.index > 0) parts.push(rest.slice(0, match.index));
    const [whole, , code, strong, strongAlt, em, emAlt, label, href, bare, email, phone] = match;
    if (code !== undefined) parts.push(html`<code>${code}</code>`);
    else if (strong !== undefined || strongAlt !== undefined) parts.push(html`<strong>${renderInline(strong ?? strongAlt ?? '')}</strong>`);
    else if (em !== undefined || emAlt !== undefined) parts.push(html`<em>${renderInline(em ?? emAlt ?? '')}</em>`);
    else if (label !== undefined && href !== undefined) parts.push(...[link(href, renderInline(label))].flat());
    else if (bare !== undefined) parts.push(...[link(bare, [bare])].flat());
    else if (email !== undefined) parts.push(...[link(`mailto:${email}`, [email])].flat());
    else if (phone !== undefined) parts.push(...[link(`tel:${phone.replace(/[^\d+]/g, '')}`, [phone])].flat());
    rest = rest.slice(match.index + whole.length);
  }
  if (rest) parts.push(rest);
  return parts;
}

const withBreaks = (lines: string[]) => lines.map((line, i) => html`${i > 0 ? html`<br />` : nothing}${renderInline(line)}`);

const LIST_ITEM = /^\s*(?:[-*+]|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const FENCE = /^\s*```/;
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|(?:\s*:?-{2,}:?\s*\|)+\s*$/;

const cells = (row: string) => row.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());

/** A pipe table: a header row, a `|---|` rule, then body rows; it scrolls sideways when wide. */
function renderTable(rows: string[]): TemplateResult {
  const [head = '', , ...body] = rows;
  return html`<div class="table" tabindex="0"><table>
    <thead><tr>${cells(head).map((cell) => html`<th scope="col">${renderInline(cell)}</th>`)}</tr></thead>
    <tbody>${body.map((row) => html`<tr>${cells(row).map((cell) => html`<td>${renderInline(cell)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

function renderList(lines: string[], ordered: boolean, start: number): TemplateResult {
  const items = lines.map((line) => html`<li>${renderInline(line.replace(LIST_ITEM, '$2'))}</li>`);
  return ordered ? html`<ol start=${start}>${items}</ol>` : html`<ul>${items}</ul>`;
}

/** Renders Markdown blocks: paragraphs, headings, lists, quotes, rules and fenced code. */
export function renderMarkdown(source: string): TemplateResult[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: TemplateResult[] = [];
  let i = 0;
  const take = (test: (line: string) => boolean) => {
    const taken: string[] = [];
    while (i < lines.length && test(lines[i]!)) taken.push(lines[i++]!);
    return taken;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) { i++; continue; }
    if (FENCE.test(line)) {
      i++;
      const code = take((l) => !FENCE.test(l));
      i++;
      blocks.push(html`<pre><code>${code.join('\n')}</code></pre>`);
    } else if (HEADING.test(line)) {
      i++;
      blocks.push(html`<p class="heading"><strong>${renderInline(line.replace(HEADING, '$2'))}</strong></p>`);
    } else if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[i + 1] ?? '')) {
      blocks.push(renderTable(take((l) => TABLE_ROW.test(l))));
    } else if (RULE.test(line)) {
      i++;
      blocks.push(html`<hr />`);
    } else if (LIST_ITEM.test(line)) {
      const number = LIST_ITEM.exec(line)?.[1];
      blocks.push(renderList(take((l) => LIST_ITEM.test(l)), number !== undefined, Number(number ?? 1)));
    } else if (line.startsWith('>')) {
      blocks.push(html`<blockquote>${withBreaks(take((l) => l.startsWith('>')).map((l) => l.replace(/^>\s?/, '')))}</blockquote>`);
    } else {
      const paragraph = take((l, first = l === line) => l.trim() !== '' && !FENCE.test(l) && !HEADING.test(l) && !LIST_ITEM.test(l)
        && !l.startsWith('>') && (first || !TABLE_ROW.test(l)));
      blocks.push(html`<p>${withBreaks(paragraph)}</p>`);
    }
  }
  return blocks;
}
