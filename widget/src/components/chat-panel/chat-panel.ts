import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import type { EmbedConfig, EmbedSession } from '@parley/shared';
import type { EmbedApi } from '../../api/embed-client.js';
import type { EmbedError } from '../../api/embed-error.js';
import { ChatController } from '../../controllers/chat-controller.js';
import { MessageSentEvent, WidgetErrorEvent } from '../../events/widget-events.js';
import { storage } from '../../internal/storage.js';
import { icons } from '../../styles/icons.js';
import '../composer/composer.js';
import type { ComposerSendEvent } from '../composer/composer.js';
import '../lead-form/lead-form.js';
import '../message-list/message-list.js';
import '../password-gate/password-gate.js';
import { styles } from './chat-panel.styles.js';

/**
 * @summary The chat window: header, messages or password gate or lead form, composer, badge.
 * @event cw-close - The visitor pressed the close button.
 * @csspart header - The title bar.
 */
@element('cw-chat-panel')
export class CwChatPanel extends LitElement {
  static override styles = styles;

  @property({ attribute: false }) config!: EmbedConfig;
  @property({ attribute: false }) api!: EmbedApi;
  @property({ reflect: true }) mode: 'bubble' | 'page' = 'bubble';
  /** The corner of the launcher the window opens above. */
  @property({ reflect: true }) side: 'left' | 'right' = 'right';
  /** True while the panel is shown; becoming active moves focus into it. */
  @property({ type: Boolean }) active = false;

  @state() private view: 'chat' | 'lead' = 'chat';
  @state() private locked = false;

  private readonly chat = new ChatController(this, () => this.api, () => `parley.${this.config.id}.${this.mode}`,
    (error) => this.reportError(error));

  private get sessionKey(): string {
    return `parley.${this.config.id}.session`;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('config') || changed.has('api')) {
      const session = storage.read<EmbedSession>(this.sessionKey);
      const valid = session && typeof session.token === 'string' && session.expiresAt > Date.now();
      this.api.token = valid ? session.token : undefined;
      this.locked = this.config.accessLevel === 'PRIVATE' && !valid;
      this.chat.restore();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('active') && this.active) void this.focusFirst();
  }

  /** Focus goes to what the visitor will use first: the password, the lead form or the message box. */
  private async focusFirst(): Promise<void> {
    await this.updateComplete;
    const target = this.renderRoot.querySelector('cw-password-gate, cw-lead-form, cw-composer') as (HTMLElement & { updateComplete?: Promise<unknown> }) | null;
    await target?.updateComplete;
    target?.focus();
  }

  private reportError(error: EmbedError): void {
    if (error.status === 401 && this.config.accessLevel === 'PRIVATE') {
      storage.remove(this.sessionKey);
      this.api.token = undefined;
      this.locked = true;
    }
    this.dispatchEvent(new WidgetErrorEvent(error.status, error.messages));
  }

  private onUnlocked(event: CustomEvent<EmbedSession>): void {
    storage.write(this.sessionKey, event.detail);
    this.api.token = event.detail.token;
    this.locked = false;
    void this.focusFirst();
  }

  private onSend(event: ComposerSendEvent): void {
    this.dispatchEvent(new MessageSentEvent(event.text));
    void this.chat.ask(event.text);
  }

  private setView(view: 'chat' | 'lead'): void {
    this.view = view;
    void this.focusFirst();
  }

  private renderHeader() {
    const { config } = this;
    const title = config.welcomeHeaderTitle || config.name;
    const close = () => this.dispatchEvent(new Event('cw-close', { bubbles: true, composed: true }));
    return html`
      <header part="header">
        ${this.view === 'lead' ? html`<button class="icon-button" aria-label="Back to the chat" @click=${() => this.setView('chat')}>${icons.back}</button>` : nothing}
        ${config.avatarUrl ? html`<img class="avatar" src=${config.avatarUrl} alt="" />` : html`<span class="avatar monogram" aria-hidden="true">${title.charAt(0)}</span>`}
        <div class="titles">
          <h2 id="title">${title}</h2>
          ${config.welcomeHeaderSubtitle ? html`<p class="subtitle">${config.welcomeHeaderSubtitle}</p>` : nothing}
        </div>
        ${this.locked ? nothing : html`
          <button class="icon-button" aria-label="New conversation" title="New conversation" @click=${() => this.chat.reset()}>${icons.newChat}</button>
          <button class="icon-button" aria-label="Leave your contact details" title="Leave your contact details" aria-pressed=${String(this.view === 'lead')}
            @click=${() => this.setView(this.view === 'lead' ? 'chat' : 'lead')}>${icons.contact}</button>`}
        ${this.mode === 'bubble' ? html`<button class="icon-button" aria-label="Close chat" @click=${close}>${icons.close}</button>` : nothing}
      </header>
    `;
  }

  private renderBody() {
    if (this.locked) return html`<cw-password-gate .api=${this.api} @cw-unlocked=${this.onUnlocked}></cw-password-gate>`;
    if (this.view === 'lead') {
      return html`<cw-lead-form .api=${this.api} @cw-lead-done=${() => this.setView('chat')}></cw-lead-form>`;
    }
    return html`
      <cw-message-list .messages=${this.chat.messages} .welcome=${this.config.welcomeMessage} .status=${this.chat.status}
        .error=${this.chat.error} .avatarUrl=${this.config.avatarUrl} .name=${this.config.welcomeHeaderTitle || this.config.name} @cw-retry=${() => this.chat.retry()}></cw-message-list>
      <cw-composer ?streaming=${this.chat.status === 'streaming'} ?emoji=${this.config.enabledEmoji}
        @cw-send=${this.onSend} @cw-stop=${() => this.chat.stop()}></cw-composer>
    `;
  }

  protected override render() {
    return html`
      <section class="panel" role=${this.mode === 'bubble' ? 'dialog' : 'region'} aria-labelledby="title">
        ${this.renderHeader()}
        <div class="body">${this.renderBody()}</div>
        ${this.config.showBadge ? html`<p class="badge">Powered by <strong>Parley</strong></p>` : nothing}
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-chat-panel': CwChatPanel;
  }
}
