import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { handoffContract, LiveEventSchema, type InboxItem, type LiveEvent, type StoredMessage } from '@parley/shared';
import { ApiError, call, urlOf } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';

/** WAITING first (longest waiting on top), then the ones the team has, then the rest by newest activity. */
function byUrgency(a: InboxItem, b: InboxItem): number {
  const rank = (item: InboxItem) => (item.state === 'WAITING' ? 0 : item.state === 'HUMAN' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a.state === 'WAITING') return (a.stateChangedAt ?? a.lastActivityAt) - (b.stateChangedAt ?? b.lastActivityAt);
  return b.lastActivityAt - a.lastActivityAt;
}

/** "3 min", "45 s": how long a visitor has waited. */
export function waitingFor(since: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Who sent a message, as the team reads it. */
function senderLabel(message: StoredMessage): string {
  if (message.sender?.type === 'member') return message.sender.name ?? 'Team';
  return message.fromUser ? 'Visitor' : 'Chatbot';
}

const STATE_LABELS: Record<InboxItem['state'], string> = { BOT: 'Bot', WAITING: 'Waiting for a person', HUMAN: 'With the team', CLOSED: 'Closed' };

/**
 * @summary The live inbox (issue 35): conversations where a visitor asked for a person or the team
 * answers, updated over the organisation's event stream; take over, reply, hand back, close.
 */
@customElement('live-inbox')
export class LiveInbox extends PageElement {
  @state() private items: InboxItem[] = [];
  @state() private selectedId: string | undefined;
  @state() private draft = '';
  @state() private error = '';
  @state() private busy = false;
  @state() private now = Date.now();
  @state() private connected = false;
  private source: EventSource | undefined;
  private clock: ReturnType<typeof setInterval> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    // The browser's EventSource reconnects by itself and sends Last-Event-ID: nothing is missed.
    this.source = new EventSource(urlOf(handoffContract.inboxEvents, {}), { withCredentials: true });
    this.source.onopen = () => { this.connected = true; };
    this.source.onerror = () => { this.connected = false; };
    this.source.onmessage = (message: MessageEvent<string>) => {
      const parsed = LiveEventSchema.safeParse(JSON.parse(message.data));
      if (parsed.success) this.apply(parsed.data);
    };
    this.clock = setInterval(() => { this.now = Date.now(); }, 15_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.source?.close();
    if (this.clock) clearInterval(this.clock);
  }

  private async load(): Promise<void> {
    try {
      const page = await call(handoffContract.inbox, { query: { limit: 100 } });
      this.items = page.conversations.sort(byUrgency);
      this.selectedId ??= this.items.find((item) => item.state === 'WAITING' || item.state === 'HUMAN')?.id;
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The inbox could not be loaded.';
    }
  }

  /** Applies a live event; a conversation not listed yet is fetched with the next page. */
  private apply(event: LiveEvent): void {
    const item = this.items.find((candidate) => candidate.id === event.conversationId);
    if (!item) {
      void this.load();
      return;
    }
    const now = Date.now();
    const next: InboxItem = event.type === 'message'
      ? { ...item, lastActivityAt: now, messages: event.index === item.messages.length ? [...item.messages, event.message] : item.messages }
      : { ...item, state: event.state, heldBy: event.heldBy, stateChangedAt: now, lastActivityAt: now };
    // A message that does not follow the last one known (missed while loading): read the conversation again.
    if (event.type === 'message' && event.index > item.messages.length) void this.load();
    this.items = this.items.map((candidate) => (candidate.id === item.id ? next : candidate)).sort(byUrgency);
  }

  private async act(action: 'takeover' | 'release' | 'close'): Promise<void> {
    const id = this.selectedId;
    if (!id) return;
    this.busy = true;
    this.error = '';
    try {
      const status = await call(handoffContract[action], { params: { id } });
      this.items = this.items.map((item) => (item.id === id ? { ...item, state: status.state, heldBy: status.heldBy } : item)).sort(byUrgency);
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'That did not work; try again.';
    } finally {
      this.busy = false;
    }
  }

  private async send(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const id = this.selectedId;
    const text = this.draft.trim();
    if (!id || !text) return;
    this.busy = true;
    this.error = '';
    try {
      await call(handoffContract.reply, { params: { id }, body: { text } });
      this.draft = '';
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The reply was not sent; try again.';
    } finally {
      this.busy = false;
    }
  }

  private renderItem(item: InboxItem) {
    const first = item.messages.find((message) => message.fromUser)?.text ?? '(no visitor message)';
    const waiting = item.state === 'WAITING' ? ` · waiting ${waitingFor(item.stateChangedAt ?? item.lastActivityAt, this.now)}` : '';
    return html`<li><button type="button" class="secondary" aria-pressed=${this.selectedId === item.id ? 'true' : 'false'}
      @click=${() => { this.selectedId = item.id; }}>${first.slice(0, 80)}</button>
      <p class="hint"><span class="state-${item.state.toLowerCase()}">${STATE_LABELS[item.state]}</span>${waiting} · ${item.chatbotName}</p></li>`;
  }

  private renderConversation(item: InboxItem) {
    const open = item.state !== 'CLOSED';
    return html`<section aria-labelledby="live-heading">
      <h2 id="live-heading">${item.chatbotName}: ${STATE_LABELS[item.state]}${item.state === 'HUMAN' ? html` <span class="muted">(${item.heldBy?.name ?? 'Team'})</span>` : nothing}</h2>
      <div class="messages card" aria-live="polite">${item.messages.map((message) => html`<div class="message ${message.fromUser ? 'user' : 'bot'}">
        <strong class="sender">${senderLabel(message)}:</strong> <span class="message-text">${message.text}</span></div>`)}</div>
      <div class="row" role="group" aria-label="Conversation actions">
        ${open && item.state !== 'HUMAN' ? html`<button type="button" ?disabled=${this.busy} @click=${() => this.act('takeover')}>Take over</button>` : nothing}
        ${item.state === 'HUMAN' || item.state === 'WAITING' ? html`<button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.act('release')}>Hand back to the bot</button>` : nothing}
        ${open ? html`<button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.act('close')}>Close</button>` : nothing}
      </div>
      ${open ? html`<form @submit=${(e: SubmitEvent) => this.send(e)}>
        <div class="field"><label for="live-reply">Reply to the visitor</label>
          <textarea id="live-reply" rows="3" maxlength="4000" .value=${this.draft} @input=${(e: Event) => { this.draft = (e.target as HTMLTextAreaElement).value; }}></textarea></div>
        <button type="submit" ?disabled=${this.busy || !this.draft.trim()}>Send</button>
      </form>` : html`<p class="muted">This conversation is closed.</p>`}
    </section>`;
  }

  override render() {
    const selected = this.items.find((item) => item.id === this.selectedId);
    const waiting = this.items.filter((item) => item.state === 'WAITING').length;
    return html`<p role="status" class="hint">${this.connected ? 'Live' : 'Connecting…'} · ${waiting} waiting</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="grid-2"><div><ul class="list-plain" aria-label="Live conversations">${this.items.map((item) => this.renderItem(item))}</ul>
        ${this.items.length === 0 ? html`<p>No conversations yet.</p>` : nothing}</div>
        ${selected ? this.renderConversation(selected) : html`<p class="muted">Choose a conversation.</p>`}</div>`;
  }
}
