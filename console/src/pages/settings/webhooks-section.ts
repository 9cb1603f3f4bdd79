import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { WebhookCreateBodySchema, webhookContract, type NotificationEventType, type Webhook } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import '../../components/confirm-dialog.js';
import type { ConfirmDialog } from '../../components/confirm-dialog.js';
import '../../components/copy-button.js';
import { issuesByField } from '../chatbots/form-issues.js';
import { EVENT_LABELS, NOTIFICATION_EVENT_TYPES, toggled } from './event-labels.js';
import './webhook-deliveries.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';

/** @summary The organisation's webhook endpoints: add one, send a test, see its deliveries, rotate its secret, turn it off or on, delete it. */
@customElement('webhooks-section')
export class WebhooksSection extends PageElement {
  @state() private webhooks: Webhook[] | undefined;
  @state() private url = '';
  @state() private description = '';
  @state() private events: NotificationEventType[] = ['lead.created', 'conversation.handoff_requested'];
  @state() private submitted = false;
  @state() private error = '';
  @state() private message = '';
  /** A secret shown once (after adding or rotating), with the endpoint it belongs to. */
  @state() private secret: { url: string; value: string } | undefined;
  @state() private watched: Webhook | undefined;
  @query('confirm-dialog') private confirmDialog!: ConfirmDialog;
  @query('webhook-deliveries') private deliveriesView!: WebhookDeliveries | null;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.webhooks = await call(webhookContract.list, {});
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The webhooks could not be loaded.';
    }
  }

  private get body() {
    return { url: this.url.trim(), events: this.events, ...(this.description.trim() ? { description: this.description.trim() } : {}) };
  }

  private async act(work: () => Promise<void>, failure: string): Promise<void> {
    this.error = '';
    this.message = '';
    try {
      await work();
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : failure;
    }
  }

  private async add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.submitted = true;
    if (issuesByField(WebhookCreateBodySchema, this.body).size > 0) return;
    await this.act(async () => {
      const created = await call(webhookContract.create, { body: this.body });
      this.secret = { url: created.url, value: created.secret };
      Object.assign(this, { url: '', description: '', submitted: false });
      await this.load();
    }, 'The webhook could not be added.');
  }

  private async test(webhook: Webhook): Promise<void> {
    await this.act(async () => {
      await call(webhookContract.test, { params: { id: webhook.id } });
      this.message = `A test message is on its way to ${webhook.url}.`;
      this.watched = webhook;
      await this.updateComplete;
      await this.deliveriesView?.load();
    }, 'The test could not be sent.');
  }

  private async rotate(webhook: Webhook): Promise<void> {
    this.confirmDialog.confirmLabel = 'Rotate secret';
    if (!await this.confirmDialog.ask(`A new secret signs messages to ${webhook.url}. The old one keeps signing too for a day, so you can update the receiver.`)) return;
    await this.act(async () => {
      const rotated = await call(webhookContract.rotateSecret, { params: { id: webhook.id } });
      this.secret = { url: rotated.url, value: rotated.secret };
    }, 'The secret could not be replaced.');
  }

  private async setEnabled(webhook: Webhook, enabled: boolean): Promise<void> {
    await this.act(async () => {
      await call(webhookContract.update, { params: { id: webhook.id }, body: { enabled } });
      this.message = enabled ? `${webhook.url} is on again; its waiting messages are being sent.` : `${webhook.url} is off.`;
      await this.load();
    }, 'The webhook could not be changed.');
  }

  private async deleteWebhook(webhook: Webhook): Promise<void> {
    this.confirmDialog.confirmLabel = 'Delete';
    if (!await this.confirmDialog.ask(`Delete the webhook to ${webhook.url} and its deliveries?`)) return;
    await this.act(async () => {
      await call(webhookContract.remove, { params: { id: webhook.id } });
      if (this.watched?.id === webhook.id) this.watched = undefined;
      this.message = `The webhook to ${webhook.url} was deleted.`;
      await this.load();
    }, 'The webhook could not be deleted.');
  }

  private renderList() {
    if (this.webhooks === undefined) return html`<p role="status">Loading…</p>`;
    if (this.webhooks.length === 0) return html`<p>No webhooks yet.</p>`;
    return html`<div class="table-wrap"><table class="stack">
      <caption class="visually-hidden">Webhook endpoints</caption>
      <thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
      <tbody>${this.webhooks.map((hook) => html`<tr>
        <td data-label="Endpoint">${hook.description ? html`${hook.description}<br>` : nothing}<code>${hook.url}</code></td>
        <td data-label="Events">${hook.events.map((type) => EVENT_LABELS[type]).join(', ')}</td>
        <td data-label="State">${hook.enabled ? html`<span class="status DONE">on</span>`
          : html`<span class="status FAILED">off</span>${hook.disabledReason ? html`<br><span class="muted">${hook.disabledReason}</span>` : nothing}`}</td>
        <td data-label="Actions"><div class="row">
          <button type="button" class="small" @click=${() => this.test(hook)} aria-label="Send test to ${hook.url}">Send test</button>
          <button type="button" class="secondary small" @click=${() => { this.watched = hook; }} aria-label="Deliveries to ${hook.url}">Deliveries</button>
          <button type="button" class="secondary small" @click=${() => this.rotate(hook)} aria-label="Rotate secret of ${hook.url}">Rotate secret</button>
          <button type="button" class="secondary small" @click=${() => this.setEnabled(hook, !hook.enabled)} aria-label="${hook.enabled ? 'Turn off' : 'Turn on'} ${hook.url}">${hook.enabled ? 'Turn off' : 'Turn on'}</button>
          <button type="button" class="danger small" @click=${() => this.deleteWebhook(hook)} aria-label="Delete ${hook.url}">Delete</button>
        </div></td>
      </tr>`)}</tbody></table></div>`;
  }

  private renderForm() {
    const issues = this.submitted ? issuesByField(WebhookCreateBodySchema, this.body) : new Map<string, string>();
    return html`<form class="card" novalidate @submit=${this.add} aria-labelledby="add-webhook-heading">
      <h3 id="add-webhook-heading">Add a webhook</h3>
      <div class="field"><label for="webhook-url">URL</label>
        <input id="webhook-url" type="url" inputmode="url" placeholder="https://hooks.example.com/parley" .value=${this.url}
          aria-invalid=${issues.has('url') ? 'true' : 'false'} aria-describedby=${issues.has('url') ? 'webhook-url-error' : nothing}
          @input=${(e: Event) => { this.url = (e.target as HTMLInputElement).value; }}>
        ${issues.has('url') ? html`<p class="error" id="webhook-url-error">URL ${issues.get('url')}</p>` : nothing}</div>
      <div class="field"><label for="webhook-description">Description (optional)</label>
        <input id="webhook-description" .value=${this.description} @input=${(e: Event) => { this.description = (e.target as HTMLInputElement).value; }}></div>
      <fieldset><legend>Events</legend>
        ${NOTIFICATION_EVENT_TYPES.map((type) => html`<label class="check"><input type="checkbox" .checked=${this.events.includes(type)}
          @change=${(e: Event) => { this.events = toggled(this.events, type, (e.target as HTMLInputElement).checked); }}>
          <span>${EVENT_LABELS[type]} <code>${type}</code></span></label>`)}
        ${issues.has('events') ? html`<p class="error">Events ${issues.get('events')}</p>` : nothing}
      </fieldset>
      <button type="submit">Add webhook</button>
    </form>`;
  }

  override render() {
    return html`<section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p class="hint">Signed with the <a href="https://www.standardwebhooks.com/" target="_blank" rel="noopener noreferrer">Standard Webhooks</a> scheme: verify them with any of its libraries.
        Failed deliveries are retried for a day; an endpoint failing that long is turned off and your notification addresses are told.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <p class="ok" role="status">${this.message}</p>
      ${this.secret ? html`<div class="card warning" role="region" aria-label="Signing secret">
        <p>The signing secret of <code>${this.secret.url}</code>, shown only now. Store it with the receiver:</p>
        <p><code id="webhook-secret">${this.secret.value}</code></p>
        <div class="row"><copy-button .text=${this.secret.value} label="Copy secret"></copy-button>
          <button type="button" class="secondary" @click=${() => { this.secret = undefined; }}>I stored it</button></div>
      </div>` : nothing}
      ${this.renderList()}
      ${this.watched ? html`<webhook-deliveries .webhook=${this.watched}></webhook-deliveries>` : nothing}
      ${this.renderForm()}
      <confirm-dialog heading="Are you sure?" confirmLabel="Go ahead"></confirm-dialog>
    </section>`;
  }
}
