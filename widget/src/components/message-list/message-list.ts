import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import type { ChatMessage } from '@parley/shared';
import type { EmbedError } from '../../api/embed-error.js';
import type { ChatStatus } from '../../controllers/chat-controller.js';
import { renderMarkdown } from '../../internal/markdown.js';
import { strings } from '../../i18n/i18n.js';
import { icons } from '../../styles/icons.js';
import { styles } from './message-list.styles.js';

function describe(error: EmbedError): string {
  if (error.status === 429) return strings.errorTooMany;
  if (error.status === 402) return strings.errorUnavailable;
  if (error.status === 0) return strings.errorConnection;
  return strings.errorGeneric;
}

/**
 * @summary The conversation: the welcome message, the visitor's and the chatbot's messages
 * (Markdown, rendered safely), a typing indicator and the error with its retry button.
 * @event cw-retry - The visitor asked to retry the failed answer.
 * @csspart message - Each message bubble.
 */
@element('cw-message-list')
export class CwMessageList extends LitElement {
  static override styles = styles;

  @property({ attribute: false }) messages: ChatMessage[] = [];
  @property({ attribute: false }) welcome = '';
  @property({ attribute: false }) status: ChatStatus = 'idle';
  @property({ attribute: false }) error: EmbedError | undefined;
  @property({ attribute: false }) avatarUrl: string | undefined;
  /** The chatbot's name; its initial stands in for a missing avatar. */
  @property({ attribute: false }) name = '';

  private stickToBottom = true;

  protected override willUpdate(): void {
    const log = this.renderRoot.querySelector?.('.log');
    // Follow the answer only if the visitor has not scrolled up to read something.
    this.stickToBottom = !log || log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  }

  protected override updated(_changed: PropertyValues<this>): void {
    const log = this.renderRoot.querySelector('.log');
    if (log && this.stickToBottom) log.scrollTop = log.scrollHeight;
  }

  private renderMessage(message: ChatMessage, streaming: boolean) {
    const who = message.fromUser ? 'user' : 'bot';
    return html`
      <div class="row ${who}">
        ${message.fromUser ? nothing : this.renderAvatar()}
        <div class="message ${who} ${streaming ? 'streaming' : ''}" part="message">
          <span class="visually-hidden">${message.fromUser ? strings.youSaid : strings.botSaid}</span>
          <div class="content" dir="auto">${message.fromUser ? html`<p>${message.text}</p>` : renderMarkdown(message.text)}</div>
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
    return html`
      <div class="log" role="log" aria-live="polite" aria-relevant="additions text" aria-busy=${String(streaming)} tabindex="0"
        aria-label=${strings.conversation}>
        ${this.welcome ? this.renderMessage({ text: this.welcome, fromUser: false }, false) : nothing}
        ${this.messages.map((m, i) => (m.text || m.fromUser
          ? this.renderMessage(m, streaming && i === this.messages.length - 1 && !m.fromUser) : nothing))}
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
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-message-list': CwMessageList;
  }
}
