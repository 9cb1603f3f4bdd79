import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import {
  ConversationSourceTypeSchema, conversationContract, knowledgeGapsContract, type ConversationListItem, type KnowledgeGapGroup,
} from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { queryParams } from '../../app/router.js';
import { type AnswerDialog, type AnswerRequest } from '../../components/answer-dialog.js';
import '../../components/answer-dialog.js';
import '../../components/chatbot-picker.js';
import '../../components/date-range.js';
import { rangeQuery } from '../../components/date-range.js';
import './conversation-view.js';
import './knowledge-gaps.js';
import './live-inbox.js';

const PAGE = 20;

/** The `rating` of the page's address (Insights links to the answers rated 👎). */
function ratingParam(): '' | 'up' | 'down' {
  const value = queryParams().get('rating');
  return value === 'up' || value === 'down' ? value : '';
}

/** The view of the page's address (`?view=live` opens the live inbox). */
function viewParam(): 'live' | 'conversations' | 'gaps' {
  const view = queryParams().get('view');
  return view === 'gaps' || view === 'live' ? view : 'conversations';
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
  @state() private view: 'live' | 'conversations' | 'gaps' = viewParam();
  @state() private conversations: ConversationListItem[] = [];
  @state() private nextCursor: string | undefined;
  @state() private selected: ConversationListItem | undefined;
  @state() private gaps: KnowledgeGapGroup[] = [];
  @state() private error = '';
  @state() private loading = false;
  @query('answer-dialog') private answerDialog!: AnswerDialog;
  /** The latest load: an earlier one that answers later (another chatbot, a deep link's first load) is dropped. */
  private loadNumber = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    // A deep link (`?chatbot=`, from Insights or Leads) loads at once: the picker only announces a change.
    if (this.chatbotId) void this.load();
  }

  private async load(more = false): Promise<void> {
    if (!this.chatbotId) return;
    const number = ++this.loadNumber;
    this.loading = true;
    this.error = '';
    try {
      const query = { ...rangeQuery(this.range), limit: String(PAGE), cursor: more ? this.nextCursor : undefined, sources: this.source || undefined, search: this.search || undefined, rating: this.rating || undefined };
      const [listing, gaps] = await Promise.all([
        call(conversationContract.list, { params: { id: this.chatbotId }, query }),
        more ? undefined : call(knowledgeGapsContract.listGaps, { params: { id: this.chatbotId }, query: rangeQuery(this.range) }),
      ]);
      if (number !== this.loadNumber) return;
      this.conversations = more ? [...this.conversations, ...listing.conversations] : listing.conversations;
      this.nextCursor = listing.nextCursor;
      if (gaps) this.gaps = gaps.gaps;
      const wanted = queryParams().get('conversation');
      if (!more) this.selected = this.conversations.find((conversation) => conversation.id === wanted) ?? this.conversations[0];
    } catch (err) {
      if (number === this.loadNumber) this.error = err instanceof ApiError ? err.messages.join(' ') : 'The conversations could not be loaded.';
    } finally {
      if (number === this.loadNumber) this.loading = false;
    }
  }

  private async reloadGaps(): Promise<void> {
    try {
      this.gaps = (await call(knowledgeGapsContract.listGaps, { params: { id: this.chatbotId }, query: rangeQuery(this.range) })).gaps;
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The knowledge gaps could not be loaded.';
    }
  }

  private async dismiss(gap: KnowledgeGapGroup): Promise<void> {
    try {
      await call(knowledgeGapsContract.dismissGap, { params: { id: this.chatbotId, gapId: gap.id } });
      this.gaps = this.gaps.filter((other) => other.id !== gap.id);
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The gap could not be dismissed.';
    }
  }

  private answer(request: Omit<AnswerRequest, 'chatbotId'>): void {
    void this.answerDialog.open({ chatbotId: this.chatbotId, ...request });
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
    const tab = (view: 'live' | 'conversations' | 'gaps', label: string) => html`<button type="button" class=${this.view === view ? '' : 'secondary'}
      aria-pressed=${this.view === view ? 'true' : 'false'} @click=${() => { this.view = view; }}>${label}</button>`;
    const views = html`<div class="row" role="group" aria-label="View">${tab('conversations', 'Inbox')}${tab('live', 'Live')}${tab('gaps', `Knowledge gaps (${this.gaps.length})`)}</div>`;
    if (this.view === 'live') return html`<h1 tabindex="-1">Conversations</h1>${views}<live-inbox></live-inbox>`;
    return html`<h1 tabindex="-1">Conversations</h1>
      ${this.renderFilters()}
      ${views}
      ${this.loading ? html`<p role="status">Loading…</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.view === 'gaps'
        ? html`<h2>Knowledge gaps</h2><knowledge-gaps .gaps=${this.gaps} chatbotId=${this.chatbotId} @open-conversation=${(e: CustomEvent<string>) => this.openConversation(e.detail)}
            @answer-gap=${(e: CustomEvent<KnowledgeGapGroup>) => this.answer({ question: e.detail.question, gapId: e.detail.id, heading: 'Answer it' })}
            @dismiss-gap=${(e: CustomEvent<KnowledgeGapGroup>) => this.dismiss(e.detail)}></knowledge-gaps>`
        : html`<div class="grid-2">${this.renderList()}<conversation-view .conversation=${this.selected} chatbotId=${this.chatbotId}
            @correct-answer=${(e: CustomEvent<{ question: string; answer?: string }>) => this.answer({
              question: e.detail.question, previousAnswer: e.detail.answer, heading: e.detail.answer === undefined ? 'Answer it' : 'Correct this answer',
            })}></conversation-view></div>`}
      <answer-dialog @answer-saved=${() => this.reloadGaps()}></answer-dialog>`;
  }
}
