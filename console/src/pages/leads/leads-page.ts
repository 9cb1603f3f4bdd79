import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { leadContract, type Lead } from '@parley/shared';
import { ApiError, call, urlOf } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import '../../components/chatbot-picker.js';
import '../../components/date-range.js';
import { rangeQuery } from '../../components/date-range.js';

/** @summary A chatbot's leads in a range, with the conversation each came from and a CSV export. */
@customElement('leads-page')
export class LeadsPage extends PageElement {
  @state() private chatbotId = '';
  @state() private range = { start: '', end: '' };
  @state() private leads: Lead[] = [];
  @state() private nextCursor: string | undefined;
  @state() private error = '';

  private async load(more = false): Promise<void> {
    if (!this.chatbotId) return;
    this.error = '';
    try {
      const listing = await call(leadContract.list, {
        params: { id: this.chatbotId }, query: { ...rangeQuery(this.range), limit: '50', cursor: more ? this.nextCursor : undefined },
      });
      this.leads = more ? [...this.leads, ...listing.leads] : listing.leads;
      this.nextCursor = listing.nextCursor;
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The leads could not be loaded.';
    }
  }

  private renderTable() {
    if (this.leads.length === 0) return html`<p>No leads in this range.</p>`;
    return html`<div class="table-wrap"><table class="stack">
      <caption class="visually-hidden">Leads</caption>
      <thead><tr><th scope="col">When</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Phone</th><th scope="col">Page</th><th scope="col">Conversation</th></tr></thead>
      <tbody>${this.leads.map((lead) => html`<tr>
        <td data-label="When">${new Date(lead.createdAt).toLocaleString()}</td><td data-label="Name">${lead.name ?? ''}</td>
        <td data-label="Email">${lead.email ? html`<a href="mailto:${lead.email}">${lead.email}</a>` : ''}</td><td data-label="Phone">${lead.phone ?? ''}</td>
        <td data-label="Page">${lead.pageUrl ? html`<a href=${lead.pageUrl} target="_blank" rel="noopener noreferrer">${new URL(lead.pageUrl).pathname}</a>` : ''}</td>
        <td data-label="Conversation">${lead.conversationId ? html`<a href="/console/conversations?chatbot=${this.chatbotId}&conversation=${lead.conversationId}"
          aria-label="Read it: the conversation of ${lead.name ?? lead.email ?? lead.phone ?? 'this lead'}">Read it</a>` : html`<span class="muted">none</span>`}</td>
      </tr>`)}</tbody></table></div>`;
  }

  override render() {
    const csv = this.chatbotId ? urlOf(leadContract.csv, { params: { id: this.chatbotId }, query: rangeQuery(this.range) }) : '';
    return html`<h1 tabindex="-1">Leads</h1>
      <form class="toolbar" @submit=${(e: SubmitEvent) => { e.preventDefault(); void this.load(); }}>
        <chatbot-picker .value=${this.chatbotId} @chatbot-change=${(e: CustomEvent<string>) => { this.chatbotId = e.detail; void this.load(); }}></chatbot-picker>
        <date-range .start=${this.range.start} .end=${this.range.end} @range-change=${(e: CustomEvent<{ start: string; end: string }>) => { this.range = e.detail; }}></date-range>
        <button type="submit">Apply</button>
        ${csv ? html`<a class="button secondary" href=${csv} download>Export CSV</a>` : nothing}
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.renderTable()}
      ${this.nextCursor ? html`<button type="button" class="secondary" @click=${() => this.load(true)}>More leads</button>` : nothing}`;
  }
}
