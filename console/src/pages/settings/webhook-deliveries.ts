import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { webhookContract, type Webhook, type WebhookDelivery } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';

const when = (ms: number) => new Date(ms).toLocaleString();

/** @summary The latest deliveries to one webhook endpoint, refreshed while some are still pending. */
@customElement('webhook-deliveries')
export class WebhookDeliveries extends PageElement {
  @property({ attribute: false }) webhook: Webhook | undefined;
  @state() private deliveries: WebhookDelivery[] | undefined;
  @state() private error = '';
  private timer: number | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('webhook')) void this.load();
  }

  /** Reads the deliveries again (after a test message was queued, say). */
  async load(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.webhook) return;
    try {
      this.deliveries = await call(webhookContract.deliveries, { params: { id: this.webhook.id } });
      this.error = '';
      if (this.deliveries.some((delivery) => delivery.status === 'PENDING')) this.timer = window.setTimeout(() => void this.load(), 2000);
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The deliveries could not be loaded.';
    }
  }

  override render() {
    if (!this.webhook) return nothing;
    const list = this.deliveries;
    return html`<section class="card" aria-labelledby="deliveries-heading">
      <h3 id="deliveries-heading">Deliveries to ${this.webhook.description ?? this.webhook.url}</h3>
      <button type="button" class="secondary small" @click=${() => this.load()}>Refresh</button>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${list === undefined ? html`<p role="status">Loading…</p>` : list.length === 0 ? html`<p>Nothing was sent to this endpoint yet.</p>` : html`
        <div class="table-wrap"><table class="stack">
          <caption class="visually-hidden">Deliveries, newest first</caption>
          <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Queued</th><th scope="col">Message id</th></tr></thead>
          <tbody>${list.map((d) => html`<tr>
            <td data-label="Event"><code>${d.type}</code></td>
            <td data-label="Status"><span class="status ${d.status === 'DELIVERED' ? 'DONE' : d.status === 'FAILED' ? 'FAILED' : 'IN_PROGRESS'}">${d.status.toLowerCase()}</span>
              ${d.status === 'PENDING' && d.nextAttemptAt && d.attempts > 0 ? html`<br><span class="muted">next try ${when(d.nextAttemptAt)}</span>` : nothing}</td>
            <td data-label="Attempts">${d.attempts}</td>
            <td data-label="Answer">${d.responseStatus ?? ''}${d.lastError ? html`<br><span class="muted">${d.lastError}</span>` : nothing}</td>
            <td data-label="Queued">${when(d.createdAt)}</td>
            <td data-label="Message id"><code>${d.id}</code></td>
          </tr>`)}</tbody></table></div>`}
    </section>`;
  }
}
