import { html, nothing } from 'lit';
import type { ChatSource } from '@parley/shared';
import { format, strings } from '../../i18n/i18n.js';
import { safeUrl } from '../../internal/markdown.js';

/** `134` → `2:14`, `3725` → `1:02:05`. */
export function formatTimestamp(seconds: number): string {
  const s = Math.floor(seconds);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

/**
 * Where a source chip links: the web page, or the hosted video at the cited moment (YouTube's
 * `t` parameter, otherwise a media fragment `#t=`, which players of plain video files honour).
 */
export function sourceHref(source: ChatSource): string | undefined {
  const url = source.url ? safeUrl(source.url) : undefined;
  if (!url || source.timestampSec === undefined) return url;
  const target = new URL(url);
  const seconds = Math.floor(source.timestampSec);
  if (/(^|\.)(youtube\.com|youtu\.be)$/.test(target.hostname)) target.searchParams.set('t', `${seconds}s`);
  else target.hash = `t=${seconds}`;
  return target.href;
}

/** The chip's words: title, the innermost heading ("FAQ › Dogs" shows "Dogs"), "p. 3" or "2:14". */
export function sourceLabel(source: ChatSource): string {
  return [
    source.title, source.section?.split(' › ').pop(),
    source.page !== undefined ? format(strings.page, { page: source.page }) : undefined,
    source.timestampSec !== undefined ? formatTimestamp(source.timestampSec) : undefined,
  ].filter(Boolean).join(' · ');
}

/**
 * The sources under an answer, as chips: a link when the source has a page to open, and a
 * toggle that shows the passage the answer was drawn from.
 */
export function renderSourceChips(sources: readonly ChatSource[], key: string, open: ReadonlySet<string>, toggle: (id: string) => void) {
  if (sources.length === 0) return nothing;
  return html`
    <ul class="sources" aria-label=${strings.sources}>
      ${sources.map((source, i) => {
        const id = `${key}-${i}`;
        const href = sourceHref(source);
        const label = sourceLabel(source);
        const expanded = open.has(id);
        return html`<li class="source ${expanded ? 'open' : ''}">
          ${href ? html`<a class="chip" href=${href} target="_blank" rel="noopener noreferrer" dir="auto">${label}</a>`
            : html`<span class="chip" dir="auto">${label}</span>`}
          <button class="more" aria-expanded=${String(expanded)} aria-controls=${id} aria-label=${`${strings.showSnippet}: ${source.title}`}
            @click=${() => toggle(id)}>${expanded ? '−' : '+'}</button>
          ${expanded ? html`<blockquote id=${id} dir="auto">${source.snippet}</blockquote>` : nothing}
        </li>`;
      })}
    </ul>`;
}
