import { LitElement, html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import type { LeadCapture } from '@parley/shared';
import type { EmbedApi } from '../../api/embed-client.js';
import { EmbedError } from '../../api/embed-error.js';
import { LeadSubmittedEvent, WidgetErrorEvent } from '../../events/widget-events.js';
import { baseStyles } from '../../styles/base.styles.js';
import { formStyles } from '../form.styles.js';
import { format, strings } from '../../i18n/i18n.js';

/**
 * @summary "Leave your contact details": name, email and phone (an email or a phone at least).
 * @event cw-lead-submitted - The service stored the lead (`event.lead`).
 * @event cw-lead-done - The visitor went back to the chat after submitting.
 */
@element('cw-lead-form')
export class CwLeadForm extends LitElement {
  static override styles = [baseStyles, formStyles];

  @property({ attribute: false }) api!: EmbedApi;
  /** What the lead is linked to (extensions): the saved conversation and the page it was left on. */
  @property({ attribute: false }) context: () => Promise<Pick<LeadCapture, 'conversationId' | 'pageUrl'>> = async () => ({});
  /** Shown inside the conversation (a lead offer) rather than as the whole window. */
  @property({ type: Boolean, reflect: true }) inline = false;

  @state() private error = '';
  @state() private busy = false;
  @state() private sent = false;
  @query('input') private firstInput?: HTMLInputElement;

  override focus(): void {
    this.firstInput?.focus();
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const value = (name: string) => String(data.get(name) ?? '').trim() || undefined;
    const lead: LeadCapture = { name: value('name'), email: value('email'), phone: value('phone') };
    if (!lead.email && !lead.phone) {
      this.error = strings.leadNeedsContact;
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
      await this.api.captureLead(defined({ ...lead, ...await this.context() }));
      this.sent = true;
      this.dispatchEvent(new LeadSubmittedEvent(defined(lead)));
    } catch (err) {
      const error = err instanceof EmbedError ? err : new EmbedError(0);
      this.error = error.status === 400 && error.messages.length > 0
        ? format(strings.leadCheck, { details: error.messages.join('; ') }) : strings.leadFailed;
      this.dispatchEvent(new WidgetErrorEvent(error.status, error.messages));
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    if (this.sent) {
      return html`
        <p class="done" role="status">${strings.leadThanks}</p>
        ${this.inline ? nothing : html`<button class="primary" @click=${() => this.dispatchEvent(new Event('cw-lead-done', { bubbles: true, composed: true }))}>
          ${strings.continueChatting}</button>`}`;
    }
    return html`
      ${this.inline ? nothing : html`<h3>${strings.leadTitle}</h3>`}
      <p class="hint">${strings.leadHint}</p>
      <form @submit=${this.submit} novalidate>
        ${this.error ? html`<p class="error" id="error" role="alert">${this.error}</p>` : nothing}
        <label>${strings.name} <input name="name" autocomplete="name" maxlength="200" /></label>
        <label>${strings.email} <input name="email" type="email" autocomplete="email" maxlength="320"
          aria-describedby=${this.error ? 'error' : nothing} /></label>
        <label>${strings.phone} <input name="phone" type="tel" autocomplete="tel" maxlength="30"
          aria-describedby=${this.error ? 'error' : nothing} /></label>
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? strings.sending : strings.submit}</button>
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-lead-form': CwLeadForm;
  }
}
