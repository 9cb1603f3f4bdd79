import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { NotificationSettingsBodySchema, notificationSettingsContract, type NotificationRecipient, type NotificationSettings } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { issuesByField } from '../chatbots/form-issues.js';
import { EVENT_LABELS, NOTIFICATION_EVENT_TYPES, toggled } from './event-labels.js';
import './webhooks-section.js';
import { settingsNav } from '../team/member-form.js';

/** @summary Settings → Notifications: webhooks, and the addresses mailed for each event (or why mail is off). */
@customElement('notifications-page')
export class NotificationsPage extends PageElement {
  @state() private settings: NotificationSettings | undefined;
  @state() private recipients: NotificationRecipient[] = [];
  @state() private newAddress = '';
  @state() private error = '';
  @state() private message = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.settings = await call(notificationSettingsContract.get, {});
      this.recipients = this.settings.recipients;
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The notification settings could not be loaded.';
    }
  }

  private addAddress(event: Event): void {
    event.preventDefault();
    const email = this.newAddress.trim();
    if (!email) return;
    this.recipients = [...this.recipients, { email, events: ['lead.created', 'conversation.handoff_requested'] }];
    this.newAddress = '';
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.error = '';
    this.message = '';
    const body = { recipients: this.recipients };
    const issues = issuesByField(NotificationSettingsBodySchema, body);
    if (issues.size > 0) {
      this.error = `Addresses: ${[...issues.values()].join(' ')}`;
      return;
    }
    try {
      this.settings = await call(notificationSettingsContract.update, { body });
      this.recipients = this.settings.recipients;
      this.message = 'The notification addresses were saved.';
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The addresses could not be saved.';
    }
  }

  private setEvent(index: number, type: NotificationRecipient['events'][number], on: boolean): void {
    this.recipients = this.recipients.map((recipient, i) => (i === index ? { ...recipient, events: toggled(recipient.events, type, on) } : recipient));
  }

  private renderRecipients() {
    if (this.recipients.length === 0) return html`<p>No notification addresses yet.</p>`;
    return html`<div class="table-wrap"><table class="stack">
      <caption class="visually-hidden">Notification addresses and the events that mail them</caption>
      <thead><tr><th scope="col">Address</th>${NOTIFICATION_EVENT_TYPES.map((type) => html`<th scope="col">${EVENT_LABELS[type]}</th>`)}<th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
      <tbody>${this.recipients.map((recipient, index) => html`<tr>
        <th scope="row" data-label="Address">${recipient.email}</th>
        ${NOTIFICATION_EVENT_TYPES.map((type) => html`<td data-label=${EVENT_LABELS[type]}>
          <input type="checkbox" .checked=${recipient.events.includes(type)} aria-label="Mail ${recipient.email} when ${EVENT_LABELS[type].toLowerCase()}"
            @change=${(e: Event) => this.setEvent(index, type, (e.target as HTMLInputElement).checked)}></td>`)}
        <td data-label="Remove"><button type="button" class="secondary small" aria-label="Remove ${recipient.email}"
          @click=${() => { this.recipients = this.recipients.filter((_, i) => i !== index); }}>Remove</button></td>
      </tr>`)}</tbody></table></div>`;
  }

  private renderMail() {
    const settings = this.settings;
    return html`<section aria-labelledby="mail-heading">
      <h2 id="mail-heading">E-mail</h2>
      ${settings && !settings.mailEnabled ? html`<div class="card warning" role="note"><p><strong>${settings.mailHint ?? 'Mail is off.'}</strong></p>
        <p class="hint">For example <code>SMTP_URL=smtps://user:password@smtp.example.com:465</code> and <code>MAIL_FROM="Parley &lt;parley@example.com&gt;"</code>. The addresses below are kept and used once mail is on.</p></div>` : nothing}
      <p class="hint">Each address gets a mail for the events ticked. A conversation sends at most one mail per 5 minutes. Every address hears when a webhook endpoint is turned off.</p>
      <form novalidate @submit=${this.save}>
        ${this.renderRecipients()}
        <div class="toolbar"><div class="field"><label for="new-address">Add an address</label>
          <input id="new-address" type="email" autocomplete="email" .value=${this.newAddress}
            @input=${(e: Event) => { this.newAddress = (e.target as HTMLInputElement).value; }}
            @keydown=${(e: KeyboardEvent) => { if (e.key === 'Enter') this.addAddress(e); }}></div>
          <button type="button" class="secondary" @click=${this.addAddress}>Add address</button></div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <p class="ok" role="status">${this.message}</p>
        <button type="submit">Save addresses</button>
      </form>
    </section>`;
  }

  override render() {
    return html`<p class="muted">Settings</p>
      <h1 tabindex="-1">Notifications</h1>
      ${settingsNav('notifications')}
      <p>Tell your team when a visitor leaves a lead, asks for a person or rates an answer, and when knowledge is processed.</p>
      <webhooks-section></webhooks-section>
      ${this.renderMail()}`;
  }
}
