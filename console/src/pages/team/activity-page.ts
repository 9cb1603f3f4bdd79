import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { auditContract, type AuditEvent } from '@parley/shared';
import { call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { messageOf, settingsNav } from './member-form.js';

/** "updateChatbot" → "update chatbot": the operation as words. */
function actionWords(action: string): string {
  return action.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** @summary Settings → Activity: who changed which chatbot, resource, member or key, newest first. */
@customElement('activity-page')
export class ActivityPage extends PageElement {
  @state() private events: AuditEvent[] | undefined;
  @state() private nextCursor: string | undefined;
  @state() private error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.more();
  }

  private async more(): Promise<void> {
    try {
      const page = await call(auditContract.list, { query: { limit: 50, ...(this.nextCursor ? { cursor: this.nextCursor } : {}) } });
      this.events = [...(this.events ?? []), ...page.events];
      this.nextCursor = page.nextCursor;
    } catch (err) {
      this.error = messageOf(err, 'The activity could not be loaded.');
    }
  }

  override render() {
    return html`
      <h1 tabindex="-1">Activity</h1>
      ${settingsNav('activity')}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.events === undefined ? html`<p role="status">Loading…</p>` : this.events.length === 0 ? html`<p>No changes recorded yet.</p>`
        : html`<div class="table-wrap"><table class="stack">
          <caption class="visually-hidden">Changes, newest first</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th></tr></thead>
          <tbody>${this.events.map((event) => html`<tr>
            <td>${new Date(event.createdAt).toLocaleString()}</td><td data-label="Who">${event.actor.name}</td>
            <td data-label="What">${actionWords(event.action)}</td>
            <td data-label="On">${event.targetName ?? event.targetId ?? html`<span class="muted">—</span>`}</td>
          </tr>`)}</tbody></table></div>`}
      ${this.nextCursor ? html`<button type="button" class="secondary" @click=${this.more}>Older changes</button>` : nothing}
    `;
  }
}
