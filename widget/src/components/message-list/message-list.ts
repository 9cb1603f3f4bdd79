import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import type { EmbedError } from '../../api/embed-error.js';
import type { ChatStatus, WidgetMessage } from '../../controllers/chat-controller.js';
import { renderMarkdown } from '../../internal/markdown.js';
import { strings } from '../../i18n/i18n.js';
import { icons } from '../../styles/icons.js';
import './answer-feedback.js';
import { renderSourceChips } from './source-chips.js';
import { styles } from './message-list.styles.js';

function describe(error: EmbedError): string {
  if (error.status === 429) return strings.errorTooMany;
  if (error.status === 402) return strings.errorUnavailable;
  if (error.status === 0) return strings.errorConnection;
  return strings.errorGeneric;
}

/** Within this many pixels of the end, the conversation counts as read to the end. */
const NEAR_END = 40;

/**
 * @summary The conversation: the welcome message, the visitor's and the chatbot's messages
 * (Markdown, rendered safely) with their sources and 👍/👎, a typing indicator, the error with
 * its retry button, and a button back to the latest message when the visitor scrolled up.
 * @slot - Shown after the messages (the starter questions, the lead offer).
 * @event cw-retry - The visitor asked to retry the failed answer.
 * @event cw-rate - The visitor rated an answer (`event.rating`, `event.comment`; the message index is `event.target.dataset.index`).
 * @csspart message - Each message bubble.
 */
@element('cw-message-list')
export class CwMessageList extends LitElement {
  static override styles = styles;

  @property({ attribute: false }) messages: WidgetMessage[] = [];
  @property({ attribute: false }) welcome = '';
  @property({ attribute: false }) status: ChatStatus = 'idle';
  @property({ attribute: false }) error: EmbedError | undefined;
  @property({ attribute: false }) avatarUrl: string | undefined;
  /** The chatbot's name; its initial stands in for a missing avatar. */
  @property({ attribute: false }) name = '';

  /** Passages the visitor expanded under source chips. */
  @state() private openSources = new Set<string>();
  /** The visitor scrolled up while there is more below. */
  @state() private awayFromEnd = false;
  private stickToBottom = true;

  private get log(): HTMLElement | null {
    return this.renderRoot.querySelector?.('.log') ?? null;
  }

  /** Scrolls to the latest message (also after the window was hidden and shown again). */
  scrollToLatest(): void {
    const log = this.log;
    if (log) log.scrollTop = log.scrollHeight;
    this.stickToBottom = true;
    this.awayFromEnd = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const log = this.log;
    const previous = changed.get('messages') as WidgetMessage[] | undefined;
    // The visitor just sent a message: they want to see it and the answer, wherever they had scrolled.
    const sent = previous !== undefined && this.messages.length > previous.length && this.messages.some((m, i) => i >= previous.length && m.fromUser);
    this.stickToBottom = sent || !log || log.scrollHeight - log.scrollTop - log.clientHeight < NEAR_END;
  }

  protected override updated(): void {
    if (this.stickToBottom) this.scrollToLatest();
    else if (!this.awayFromEnd) this.awayFromEnd = true;
  }

  private onScroll(): void {
    const log = this.log;
    if (log) this.awayFromEnd = log.scrollHeight - log.scrollTop - log.clientHeight >= NEAR_END;
  }

  private toggleSource(id: string): void {
    const open = new Set(this.openSources);
    if (!open.delete(id)) open.add(id);
    this.openSources = open;
  }

  private renderMessage(message: WidgetMessage, index: number, streaming: boolean) {
    const who = message.fromUser ? 'user' : 'bot';
    const answer = !message.fromUser && index >= 0 && !streaming && !message.by;
    return html`
      <div class="row ${who}">
        ${message.fromUser ? nothing : this.renderAvatar()}
        <div class="stack">
          <div class="message ${who} ${streaming ? 'streaming' : ''} ${message.interrupted ? 'interrupted' : ''}" part="message">
            ${message.by ? html`<b>${message.by}</b>` : html`<span class="visually-hidden">${message.fromUser ? strings.youSaid : strings.botSaid}</span>`}
            <div class="content" dir="auto">${message.fromUser ? html`<p>${message.text}</p>` : renderMarkdown(message.text)}</div>
            ${message.interrupted ? html`<p class="interrupted-note">${strings.interrupted}</p>` : nothing}
          </div>
          ${answer ? renderSourceChips(message.meta?.sources ?? [], `s${index}`, this.openSources, (id) => this.toggleSource(id)) : nothing}
          ${answer ? html`<cw-answer-feedback data-index=${index} .rating=${message.rating}></cw-answer-feedback>` : nothing}
        </div>
      </div>
    `;
  }

  private renderAvatar() {
    return this.avatarUrl ? html`<img class="mini-avatar" src=${this.avatarUrl} alt="" />`
      : html`<span class="mini-avatar" aria-hidden="true">${this.name.charAt(0)}</span>`;
  }

  protected override render() {
    const streaming = this.status === 'streaming';
    const last = this.messages.at(-1);
    const waiting = streaming && (!last || last.fromUser || last.text === '');
    // The jump pill goes away once the end shows: the focus it had moves to the conversation, not to the page's start.
    return html`
      <div class="log" role="log" aria-live="polite" aria-relevant="additions text" aria-busy=${String(streaming)} tabindex="0"
        aria-label=${strings.conversation} @scroll=${this.onScroll}>
        ${this.welcome ? this.renderMessage({ text: this.welcome, fromUser: false }, -1, false) : nothing}
        ${this.messages.map((m, i) => (m.text || m.fromUser
          ? this.renderMessage(m, i, streaming && i === this.messages.length - 1 && !m.fromUser) : nothing))}
        ${waiting ? html`
          <div class="row bot">${this.renderAvatar()}
            <div class="message bot typing" role="status"><span class="visually-hidden">${strings.typing}</span>
              <i></i><i></i><i></i></div>
          </div>` : nothing}
        ${this.status === 'error' && this.error ? html`
          <div class="error" role="alert">
            <span>${describe(this.error)}</span>
            <button class="retry" @click=${() => this.dispatchEvent(new Event('cw-retry', { bubbles: true, composed: true }))}>
              ${icons.retry} ${strings.retry}</button>
          </div>` : nothing}
        <slot></slot>
      </div>
      ${/* The pill goes away once the end shows: its focus moves to the conversation, not to the page's start. */ ''}
      ${this.awayFromEnd ? html`<button class="jump" @click=${() => { this.scrollToLatest(); this.log?.focus({ preventScroll: true }); }}>${icons.down}<span>${strings.jumpToLatest}</span></button>` : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-message-list': CwMessageList;
  }
}
