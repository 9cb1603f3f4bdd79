import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { chatbotContract, resourceContract, type Chatbot, type Passage, type Resource } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { usersOf } from './resource-table.js';
import { renderPassageText } from './passage-text.js';
import { STATUS_LABELS, resourceKind } from './resource-labels.js';

const PENDING = new Set(['NOT_STARTED', 'IN_PROGRESS']);

const seconds = (value: number) => `${Math.floor(value / 60)}:${String(Math.floor(value % 60)).padStart(2, '0')}`;

/** @summary One resource: its details, the chatbots using it, "Sync now" and its extracted passages with provenance. */
@customElement('resource-page')
export class ResourcePage extends PageElement {
  @property() resourceId = '';
  @state() private resource: Resource | undefined;
  @state() private chatbots: Chatbot[] = [];
  @state() private passages: Passage[] = [];
  @state() private nextCursor: string | undefined;
  @state() private message = '';
  private timer: number | undefined;

  override async connectedCallback(): Promise<void> {
    super.connectedCallback();
    [this.resource, this.chatbots] = await Promise.all([
      call(resourceContract.get, { params: { id: this.resourceId } }), call(chatbotContract.list, {}),
    ]);
    await this.more();
    if (PENDING.has(this.resource.aiProcessingStatus)) this.watch();
    else this.watchMeaning();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  /**
   * Polls the resource while it is queued or read; when it settles, its details and passages are
   * read afresh (a sync's new "Last sync" and passages show without a reload).
   */
  private watch(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(async () => {
      if (!this.isConnected) return;
      const resource = await call(resourceContract.get, { params: { id: this.resourceId } });
      this.resource = resource;
      if (PENDING.has(resource.aiProcessingStatus) || (this.syncing && resource.aiProcessingStatus === 'DONE' && resource.lastSync === this.syncing.lastSync)) return this.watch();
      this.syncing = undefined;
      this.passages = [];
      this.nextCursor = undefined;
      await this.more();
      this.message = resource.aiProcessingStatus === 'DONE' ? 'Read again: the passages below are the new ones.' : `Not read: ${resource.failureReason ?? resource.aiProcessingStatus}`;
      this.watchMeaning();
    }, 1000);
  }

  /**
   * Polls a DONE resource while its meaning index fills, so its progress line moves and goes once
   * complete without a reload; a read that starts meanwhile (a scheduled sync) is followed as above.
   */
  private watchMeaning(): void {
    clearTimeout(this.timer);
    const index = this.resource?.meaningIndex;
    if (!index || index.state === 'COMPLETE') return;
    this.timer = window.setTimeout(async () => {
      if (!this.isConnected) return;
      this.resource = await call(resourceContract.get, { params: { id: this.resourceId } });
      if (PENDING.has(this.resource.aiProcessingStatus)) this.watch();
      else this.watchMeaning();
    }, 3000);
  }

  private async more(): Promise<void> {
    const page = await call(resourceContract.passages, { params: { id: this.resourceId }, query: { limit: 20, cursor: this.nextCursor } });
    this.passages = [...this.passages, ...page.passages];
    this.nextCursor = page.nextCursor;
  }

  /** The resource as it was when "Sync now" was pressed (its sync is over once `lastSync` moves). */
  private syncing: Resource | undefined;

  private async sync(): Promise<void> {
    try {
      this.syncing = this.resource;
      this.resource = await call(resourceContract.sync, { params: { id: this.resourceId } });
      this.message = 'Sync started: the current passages answer until the new ones are in.';
      this.watch();
    } catch (err) {
      this.message = err instanceof ApiError ? err.messages.join(' ') : 'The sync could not start.';
    }
  }

  private renderPassage(passage: Passage, index: number) {
    const where = [
      passage.page !== undefined ? `page ${passage.page}` : '', passage.section ?? '',
      passage.timestampSec !== undefined ? `at ${seconds(passage.timestampSec)}` : '',
    ].filter(Boolean).join(' · ');
    return html`<li><p class="hint">#${index + 1}${where ? ` · ${where}` : ''}${passage.url ? html` · <a href=${passage.url} rel="noopener noreferrer" target="_blank">${passage.url}</a>` : nothing}</p>
      ${renderPassageText(passage.text)}</li>`;
  }

  override render() {
    const resource = this.resource;
    if (!resource) return html`<h1 tabindex="-1">Resource</h1><p role="status">Loading…</p>`;
    const users = usersOf(resource, this.chatbots);
    return html`<h1 tabindex="-1">${resource.fileName}</h1>
      <p><a href="/console/knowledge">All resources</a></p>
      <div class="card"><dl class="row">
        <dt>Type</dt><dd>${resourceKind(resource)} <span class="hint">(<code>${resource.documentFormat ?? resource.type}</code>)</span></dd>
        <dt>Status</dt><dd><span class="status ${resource.aiProcessingStatus}">${STATUS_LABELS[resource.aiProcessingStatus]}</span>
          <code class="hint">${resource.aiProcessingStatus}</code>
          ${resource.processingProgress !== undefined ? html` <span class="hint">${Math.round(resource.processingProgress * 100)}% done</span>` : nothing}
          ${resource.failureReason ? html` <span class="hint">${resource.failureReason}</span>` : nothing}
          ${resource.meaningIndex && resource.meaningIndex.state !== 'COMPLETE'
            ? html`<br><span class="hint">Answers use words now; understanding by meaning ${Math.floor(resource.meaningIndex.progress * 100)}% ready</span>` : nothing}</dd>
        ${resource.lastSync ? html`<dt>Last sync</dt><dd>${new Date(resource.lastSync).toLocaleString()}</dd>` : nothing}
        <dt>Used by</dt><dd>${users.length ? users.map((c) => c.name).join(', ') : 'no chatbot'}</dd>
      </dl>
      <div class="row">
        ${resource.type === 'WEB' || resource.type === 'HOSTED_VIDEO' ? html`<button type="button" @click=${this.sync}>Sync now</button>` : nothing}
        ${resource.type === 'TEXT' ? html`<a class="button secondary" href="/console/knowledge?edit=${resource.id}">Edit text</a>` : nothing}
        ${resource.type === 'WEB' ? html`<a class="button secondary" href="/console/knowledge?editWebsite=${resource.id}">Website settings</a>` : nothing}
      </div>
      <p role="status">${this.message}</p></div>
      <h2>Passages</h2>
      ${this.passages.length === 0 ? html`<p>No passages yet${resource.aiProcessingStatus === 'DONE' ? '' : ': the resource is still being read'}.</p>` : nothing}
      <ol class="list-plain">${this.passages.map((passage, index) => this.renderPassage(passage, index))}</ol>
      ${this.nextCursor ? html`<button type="button" class="secondary" @click=${this.more}>More passages</button>` : nothing}`;
  }
}
