import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import type { EmbedConfig, EmbedSession } from '@parley/shared';
import type { EmbedApi } from '../../api/embed-client.js';
import type * as LiveModule from '../../lazy/live-handoff.js';
import { widgetDefaults } from '../../internal/widget-defaults.js';
import type { EmbedError } from '../../api/embed-error.js';
import { ChatController } from '../../controllers/chat-controller.js';
import { MessageSentEvent, WidgetErrorEvent } from '../../events/widget-events.js';
import { storage } from '../../internal/storage.js';
import { strings } from '../../i18n/i18n.js';
import { lockPageScroll } from '../../internal/page-scroll-lock.js';
import { icons } from '../../styles/icons.js';
import '../composer/composer.js';
import type { ComposerSendEvent } from '../composer/composer.js';
import '../lead-form/lead-form.js';
import '../lead-offer/lead-offer.js';
import '../message-list/message-list.js';
import type { CwMessageList } from '../message-list/message-list.js';
import type { RateEvent } from '../message-list/answer-feedback.js';
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
  /** "New chat" was pressed on a conversation with messages: asking before it is wiped. */
  @state() private confirmingReset = false;
  /** The window fills a phone's screen: the page behind must not scroll and Tab stays inside. */
  @state() private fullScreen = false;
  /** After the inline lead offer's form was sent: its thanks stay until the next question. */
  @state() private offerSent = false;
  /** Live handoff: "someone is coming", or the conversation was closed by the team. */
  @state() notice: string | undefined;
  liveAbort: AbortController | undefined;
  // Phones, and short windows such as a laptop at 200% zoom: the chat takes the whole viewport.
  private readonly phone = window.matchMedia('(max-width: 480px), (max-height: 560px)');
  private unlockScroll: (() => void) | undefined;
  private offerInView = false;

  private get messageList(): CwMessageList | null {
    return this.renderRoot.querySelector('cw-message-list');
  }

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
      // The team was asked for before the reload: follow the conversation again.
      if (this.chat.live !== undefined) this.goLive(false);
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.phone.addEventListener('change', this.onViewportChange);
    this.onViewportChange();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.phone.removeEventListener('change', this.onViewportChange);
    this.unlockScroll?.();
    this.unlockScroll = undefined;
    this.liveAbort?.abort();
  }

  /** Live handoff (lazy/live-handoff.ts): asks for a person, or follows the conversation the team joined. */
  private goLive(ask: boolean, lead = false): void {
    const url = widgetDefaults.chunks.live;
    if (url) void import(/* @vite-ignore */ url).then((live: typeof LiveModule) => live.startLive(this, strings, ask, lead));
  }

  private readonly onViewportChange = (): void => {
    this.fullScreen = this.mode === 'bubble' && this.phone.matches;
  };

  protected override updated(changed: PropertyValues<this>): void {
    // The lead offer appears below the last answer: bring it into view once.
    const offered = this.leadOffered;
    if (offered && !this.offerInView) void this.updateComplete.then(() => this.messageList?.scrollToLatest());
    this.offerInView = offered;
    if (changed.has('active') && this.active) {
      void this.focusFirst();
      // A hidden log has no height to scroll: reopened, the conversation shows its end.
      void this.updateComplete.then(() => this.messageList?.scrollToLatest());
    }
    // A full-screen chat on a phone is modal: the host page behind it does not scroll.
    const modal = this.fullScreen && this.active;
    if (modal && !this.unlockScroll) this.unlockScroll = lockPageScroll();
    if (!modal && this.unlockScroll) {
      this.unlockScroll();
      this.unlockScroll = undefined;
    }
  }

  /** Tab past either end of the full-screen chat wraps around instead of leaving it. */
  private wrapFocus(toStart: boolean): void {
    const header = this.renderRoot.querySelector('.header');
    if (toStart) header?.querySelector<HTMLElement>('button')?.focus();
    else (this.renderRoot.querySelector('cw-composer, cw-lead-form, cw-password-gate') as HTMLElement | null)?.focus();
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
    this.ask(event.text);
  }

  private ask(text: string): void {
    this.offerSent = false;
    this.dispatchEvent(new MessageSentEvent(text));
    // The visitor asked for a person in words: the team is asked too.
    void this.chat.ask(text).then(() => { if (this.chat.messages.at(-1)?.meta?.handoff) this.goLive(true); });
  }

  private onRate(event: RateEvent): void {
    const index = Number((event.composedPath()[0] as HTMLElement).dataset.index);
    this.chat.rate(index, event.rating, event.comment).catch((err: unknown) => {
      if (err instanceof Error && 'status' in err) this.reportError(err as EmbedError);
    });
  }

  /** What a lead left here is linked to (extensions): the saved conversation (once saved) and this page. */
  private readonly leadContext = async () => {
    await this.chat.settled();
    const page = /^https?:$/.test(location.protocol) ? location.href.slice(0, 2000) : undefined;
    return { conversationId: this.chat.savedConversationId, pageUrl: page };
  };

  /**
   * The lead form is offered inline after a refusal, after the visitor asked for a person, or
   * after the owner's number of answers; once per conversation.
   */
  private get leadOffered(): boolean {
    if (this.chat.leadOfferDone || this.chat.status === 'streaming') return false;
    const answers = this.chat.messages.filter((m) => !m.fromUser);
    const last = answers.at(-1);
    if (!last || this.chat.messages.at(-1) !== last) return false;
    const turns = this.config.leadOfferAfterTurns;
    return last.meta?.refused === true || last.meta?.handoff === true || (turns !== undefined && answers.length >= turns);
  }

  private renderLeadOffer() {
    if (!this.leadOffered && !this.offerSent) return nothing;
    return html`<cw-lead-offer .api=${this.api} .context=${this.leadContext} ?sent=${this.offerSent}
      @cw-lead-offer-close=${() => this.chat.closeLeadOffer()}
      @cw-lead-submitted=${() => { this.offerSent = true; this.chat.closeLeadOffer(); }}></cw-lead-offer>`;
  }

  private renderStarters() {
    const questions = this.config.suggestedQuestions ?? [];
    if (this.chat.messages.length > 0 || questions.length === 0) return nothing;
    return html`
      <div class="starters" role="group" aria-label=${strings.suggestedQuestions}>
        ${questions.map((question) => html`<button dir="auto" @click=${() => this.ask(question)}>${question}</button>`)}
      </div>`;
  }

  private setView(view: 'chat' | 'lead'): void {
    this.view = view;
    void this.focusFirst();
  }

  private askReset(): void {
    if (this.chat.messages.length === 0) return;
    this.confirmingReset = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.confirm .cancel')?.focus());
  }

  private answerReset(reset: boolean): void {
    if (reset) {
      this.chat.reset();
      this.liveAbort?.abort();
      this.notice = undefined;
    }
    this.confirmingReset = false;
    void this.focusFirst();
  }

  private renderConfirm() {
    return html`
      <div class="confirm" role="alertdialog" aria-labelledby="confirm-text" @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Escape') { e.stopPropagation(); this.answerReset(false); }
      }}>
        <p id="confirm-text">${strings.confirmNew}</p>
        <button class="danger" @click=${() => this.answerReset(true)}>${strings.confirmNewYes}</button>
        <button class="cancel" @click=${() => this.answerReset(false)}>${strings.cancel}</button>
      </div>`;
  }

  /** A header button: an icon with an accessible name and a tooltip that shows on hover and focus. */
  private headerButton(label: string, icon: unknown, onClick: () => void, pressed?: boolean) {
    return html`<button class="icon-button tip" aria-label=${label} data-tip=${label} aria-pressed=${pressed === undefined ? nothing : String(pressed)}
      @click=${onClick}>${icon}</button>`;
  }

  private renderHeader() {
    const { config } = this;
    const title = config.welcomeHeaderTitle || config.name;
    const close = () => this.dispatchEvent(new Event('cw-close', { bubbles: true, composed: true }));
    return html`
      <div class="header" part="header">
        ${this.view === 'lead' ? this.headerButton(strings.backToChat, html`<span class="flip-rtl">${icons.back}</span>`, () => this.setView('chat')) : nothing}
        ${config.avatarUrl ? html`<img class="avatar" src=${config.avatarUrl} alt="" />` : html`<span class="avatar monogram" aria-hidden="true">${title.charAt(0)}</span>`}
        <div class="titles">
          <h2 id="title">${title}</h2>
          ${config.welcomeHeaderSubtitle ? html`<p class="subtitle">${config.welcomeHeaderSubtitle}</p>` : nothing}
        </div>
        ${this.locked ? nothing : html`
          ${this.headerButton(strings.talkToPerson, icons.person, () => this.goLive(true, true))}
          ${this.headerButton(strings.newConversationLabel, icons.newChat, () => this.askReset())}
          ${this.headerButton(strings.contactLabel, icons.contact, () => this.setView(this.view === 'lead' ? 'chat' : 'lead'), this.view === 'lead')}`}
        ${this.mode === 'bubble' ? this.headerButton(strings.close, icons.close, close) : nothing}
      </div>
    `;
  }

  private renderBody() {
    if (this.locked) return html`<cw-password-gate .api=${this.api} @cw-unlocked=${this.onUnlocked}></cw-password-gate>`;
    if (this.view === 'lead') {
      return html`<cw-lead-form .api=${this.api} .context=${this.leadContext} @cw-lead-done=${() => this.setView('chat')}
        @cw-lead-submitted=${() => this.chat.closeLeadOffer()}></cw-lead-form>`;
    }
    return html`
      <cw-message-list .messages=${this.chat.messages} .welcome=${this.config.welcomeMessage} .status=${this.chat.status}
        .error=${this.chat.error} .avatarUrl=${this.config.avatarUrl} .name=${this.config.welcomeHeaderTitle || this.config.name}
        @cw-retry=${() => this.chat.retry()} @cw-rate=${this.onRate}>${this.renderStarters()}${this.renderLeadOffer()}<p class="notice" role="status">${this.notice ?? ''}</p></cw-message-list>
      <cw-composer ?streaming=${this.chat.status === 'streaming'} ?emoji=${this.config.enabledEmoji}
        @cw-send=${this.onSend} @cw-stop=${() => this.chat.stop()}></cw-composer>
    `;
  }

  protected override render() {
    const trap = this.fullScreen && this.active;
    const sentinel = (toStart: boolean) => (trap ? html`<span tabindex="0" @focus=${() => this.wrapFocus(toStart)}></span>` : nothing);
    return html`
      ${sentinel(false)}
      <section class="panel" role=${this.mode === 'bubble' ? 'dialog' : 'region'} aria-labelledby="title" aria-modal=${trap ? 'true' : nothing}>
        ${this.renderHeader()}
        ${this.confirmingReset ? this.renderConfirm() : nothing}
        <div class="body">${this.renderBody()}</div>
        ${this.config.showBadge ? html`<p class="badge">${strings.poweredBy} <strong>Parley</strong></p>` : nothing}
      </section>
      ${sentinel(true)}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-chat-panel': CwChatPanel;
  }
}
