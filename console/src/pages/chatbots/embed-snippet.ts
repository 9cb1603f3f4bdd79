import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { chatbotContract, type EmbedCheck, type EmbedOriginSeen } from '@parley/shared';
import { call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import '../../components/copy-button.js';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "2 minutes ago", "yesterday": how long ago a time was, in the largest unit that fits. */
export function ago(time: number, now = Date.now()): string {
  const seconds = Math.round((time - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [['day', 86_400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  return 'just now';
}

const host = (origin: string) => origin.replace(/^https?:\/\//, '');

/** @summary The chatbot's embed code and chat link, each with a copy button, and where the widget was loaded or refused. */
@customElement('embed-snippet')
export class EmbedSnippet extends PageElement {
  @property() chatbotId = '';
  @state() private check: EmbedCheck | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void call(chatbotContract.embedCheck, { params: { id: this.chatbotId } }).then((check) => { this.check = check; }, () => undefined);
  }

  private renderCheck() {
    const check = this.check;
    if (!check) return nothing;
    const seen = (item: EmbedOriginSeen) => html`<li><strong>${host(item.origin)}</strong>, ${ago(item.lastSeenAt)}</li>`;
    return html`<h3>Where it is loaded</h3>
      ${check.loaded.length === 0
        ? html`<p class="hint" data-testid="embed-loaded">Not loaded on a site yet (this service's own chat link and previews do not count).</p>`
        : html`<p data-testid="embed-loaded">Last loaded on <strong>${host(check.loaded[0]!.origin)}</strong>, ${ago(check.loaded[0]!.lastSeenAt)}.</p>
          ${check.loaded.length > 1 ? html`<ul class="hint">${check.loaded.slice(1, 5).map(seen)}</ul>` : nothing}`}
      ${check.refused.length > 0 ? html`<div class="warning" role="note" data-testid="embed-refused">
          <p>Refused by its allowed domains (visitors there see no chat):</p><ul>${check.refused.slice(0, 5).map(seen)}</ul>
          <p class="hint">If one of these is your site, add it under Allowed domains on the
            <a href="/console/chatbots/${this.chatbotId}/appearance">Appearance</a> page.</p></div>` : nothing}`;
  }

  override render() {
    const origin = location.origin;
    const snippet = `<script src="${origin}/widget.js" data-chatbot-id="${this.chatbotId}" async></script>`;
    const link = `${origin}/chat/${this.chatbotId}`;
    return html`<section class="card" aria-labelledby="embed-heading">
      <h2 id="embed-heading">Put it on your site</h2>
      <p class="hint">Paste this into any page, before <code>&lt;/body&gt;</code>:</p>
      <pre><code>${snippet}</code></pre>
      <copy-button label="Copy embed code" .text=${snippet}></copy-button>
      <p class="hint">Or share the chat link:</p>
      <pre><code>${link}</code></pre>
      <div class="row"><copy-button label="Copy chat link" .text=${link}></copy-button>
        <a href=${link} target="_blank" rel="noopener">Open the chat link</a></div>
      ${this.renderCheck()}
    </section>`;
  }
}
