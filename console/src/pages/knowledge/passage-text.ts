import { html, type TemplateResult } from 'lit';

/**
 * A passage as an owner reads it: the `#` heading lines the chunker writes become headings (of a
 * level below the page's), `- ` lines list items, other lines paragraphs; never raw Markdown marks.
 */
export function renderPassageText(text: string): TemplateResult {
  const parts: TemplateResult[] = [];
  let items: string[] = [];
  const flush = () => {
    if (items.length > 0) parts.push(html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`);
    items = [];
  };
  for (const line of text.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (item) { items.push(item[1]!); continue; }
    flush();
    if (heading) parts.push(html`<p class="passage-heading" role="heading" aria-level=${Math.min(6, heading[1]!.length + 2)}><strong>${heading[2]}</strong></p>`);
    else if (line.trim()) parts.push(html`<p>${line}</p>`);
  }
  flush();
  return html`<div class="passage">${parts}</div>`;
}
