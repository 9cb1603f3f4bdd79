import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import {
  ConversationSourceTypeSchema, conversationContract, insightsContract, type ConversationListItem, type KnowledgeGap,
} from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { queryParams } from '../../app/router.js';
import '../../components/chatbot-picker.js';
import '../../components/date-range.js';
import { rangeQuery } from '../../components/date-range.js';
import './conversation-view.js';
import './knowledge-gaps.js';

const PAGE = 20;

/** The `rating` of the page's address (Insights links to the answers rated 👎). */
function ratingParam(): '' | 'up' | 'down' {
  const value = queryParams().get('rating');
  return value === 'up' || value === 'down' ? value : '';
}

/** " · 👎 2 not helpful, 👍 1 helpful" for the list, or nothing when the visitor rated no answer. */
function ratingNote(conversation: ConversationListItem): string {
  const count = (rating: 'up' | 'down') => conversation.feedback?.filter((feedback) => feedback.rating === rating).length ?? 0;
  const parts = [count('down') ? `👎 ${count('down')} not helpful` : '', count('up') ? `👍 ${count('up')} helpful` : ''].filter(Boolean);
  return parts.length ? ` · ${parts.join(', ')}` : '';
}

/** @summary Conversations per chatbot (paged, by range, source, text and rating) with transcript and analysis; and the knowledge gaps. */
@customElement('inbox-page')
export class InboxPage extends PageElement {
  @state() private chatbotId = queryParams().get('chatbot') ?? '';
  @state() private range = { start: '', end: '' };
  @state() private source = '';
  @state() private search = '';
  @state() private rating: '' | 'up' | 'down' = ratingParam();
  @state() private view: 'conversations' | 'gaps' = queryParams().get('view') === 'gaps' ? 'gaps' : 'conversations';
  @state() private conversations: ConversationListItem[] = [];
  @state() private nextCursor: string | undefined;
  @state() private selected: ConversationListItem | undefined;
  @state() private gaps: KnowledgeGap[] = [];
  @state() private error = '';
  @state() private loading = false;

  private async load(more = false): Promise<void> {
    if (!this.chatbotId) return;
    this.loading = true;
    this.error = '';
    try {
      const query = { ...rangeQuery(this.range), limit: String(PAGE), cursor: more ? this.nextCursor : undefined, sources: this.source || undefined, search: this.search || undefined, rating: this.rating || undefined };
      const [listing, stats] = await Promise.all([
        call(conversationContract.list, { params: { id: this.chatbotId }, query }),
        more ? undefined : call(insightsContract.chatbotStats, { params: { id: this.chatbotId }, query: rangeQuery(this.range) }),
      ]);
      this.conversations = more ? [...this.conversations, ...listing.conversations] : listing.conversations;
      this.nextCursor = listing.nextCursor;
      if (stats) this.gaps = stats.knowledgeGaps;
      const wanted = queryParams().get('conversation');
      if (!more) this.selected = this.conversations.find((conversation) => conversation.id === wanted) ?? this.conversations[0];
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The conversations could not be loaded.';
    } finally {
      this.loading = false;
    }
  }

  private openConversation(id: string): void {
    this.view = 'conversations';
    this.selected = this.conversations.find((conversation) => conversation.id === id) ?? this.selected;
  }

  private renderFilters() {
    return html`<form class="toolbar" @submit=${(e: SubmitEvent) => { e.preventDefault(); void this.load(); }}>
      <chatbot-picker .value=${this.chatbotId} @chatbot-change=${(e: CustomEvent<string>) => { this.chatbotId = e.detail; void this.load(); }}></chatbot-picker>
      <date-range .start=${this.range.start} .end=${this.range.end} @range-change=${(e: CustomEvent<{ start: string; end: string }>) => { this.range = e.detail; }}></date-range>
      <div class="field"><label for="inbox-source">Source</label>
        <select id="inbox-source" @change=${(e: Event) => { this.source = (e.target as HTMLSelectElement).value; }}>
          <option value="">All sources</option>${ConversationSourceTypeSchema.options.map((type) => html`<option ?selected=${type === this.source}>${type}</option>`)}
        </select></div>
      <div class="field"><label for="inbox-search">Search</label>
        <input id="inbox-search" type="search" .value=${this.search} @input=${(e: Event) => { this.search = (e.target as HTMLInputElement).value; }}></div>
      <div class="field"><label for="inbox-rating">Rating</label>
        <select id="inbox-rating" @change=${(e: Event) => { this.rating = (e.target as HTMLSelectElement).value as '' | 'up' | 'down'; }}>
          <option value="">All conversations</option><option value="down" ?selected=${this.rating === 'down'}>Rated 👎 not helpful</option>
          <option value="up" ?selected=${this.rating === 'up'}>Rated 👍 helpful</option>
        </select></div>
      <button type="submit">Apply</button>
    </form>`;
  }

  private renderList() {
    return html`<div>
      <ul class="list-plain" aria-label="Conversations">${this.conversations.map((conversation) => {
        const first = conversation.messages.find((message) => message.fromUser)?.text ?? '(no visitor message)';
        return html`<li><button type="button" class="secondary" aria-pressed=${this.selected?.id === conversation.id ? 'true' : 'false'}
          @click=${() => { this.selected = conversation; }}>${first.slice(0, 80)}</button>
          <p class="hint">${new Date(conversation.createdAt).toLocaleString()} · ${conversation.source.type} · ${conversation.messages.length} messages${ratingNote(conversation)}</p></li>`;
      })}</ul>
      ${this.conversations.length === 0 && !this.loading ? html`<p>No conversations match.</p>` : nothing}
      ${this.nextCursor ? html`<button type="button" class="secondary" @click=${() => this.load(true)}>More conversations</button>` : nothing}
    </div>`;
  }

  override render() {
    const tab = (view: 'conversations' | 'gaps', label: string) => html`<button type="button" class=${this.view === view ? '' : 'secondary'}
      aria-pressed=${this.view === view ? 'true' : 'false'} @click=${() => { this.view = view; }}>${label}</button>`;
    return html`<h1 tabindex="-1">Conversations</h1>
      ${this.renderFilters()}
      <div class="row" role="group" aria-label="View">${tab('conversations', 'Inbox')}${tab('gaps', `Knowledge gaps (${this.gaps.length})`)}</div>
      ${this.loading ? html`<p role="status">Loading…</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.view === 'gaps'
        ? html`<h2>Knowledge gaps</h2><knowledge-gaps .gaps=${this.gaps} @open-conversation=${(e: CustomEvent<string>) => this.openConversation(e.detail)}></knowledge-gaps>`
        : html`<div class="grid-2">${this.renderList()}<conversation-view .conversation=${this.selected}></conversation-view></div>`}`;
  }
}
