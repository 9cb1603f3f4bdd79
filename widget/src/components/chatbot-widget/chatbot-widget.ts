import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import { styleMap } from 'lit/directives/style-map.js';
import type { EmbedConfig } from '@parley/shared';
import { EmbedClient, type EmbedApi } from '../../api/embed-client.js';
import { EmbedError } from '../../api/embed-error.js';
import { OpenChangeEvent, WidgetErrorEvent } from '../../events/widget-events.js';
import { storage } from '../../internal/storage.js';
import { widgetDefaults } from '../../internal/widget-defaults.js';
import { themeOf } from '../../internal/theme.js';
import { format, language, strings, useLanguage } from '../../i18n/i18n.js';
import { icons } from '../../styles/icons.js';
import '../chat-panel/chat-panel.js';
import '../popup-messages/popup-messages.js';
import { styles } from './chatbot-widget.styles.js';

/**
 * @summary The chatbot a site owner embeds: a launcher bubble that opens the chat window, or
 * (mode="page") a full-page chat. Its look comes from the chatbot's settings.
 * @event cw-open-change - The chat window opened or closed (`event.open`).
 * @event cw-message-sent - The visitor sent a message (`event.text`).
 * @event cw-lead-submitted - The visitor left contact details (`event.lead`).
 * @event cw-error - A request failed (`event.status`, `event.messages`).
 * @csspart launcher - The round button that opens and closes the chat.
 * @cssproperty --cw-offset - Distance of the launcher from the viewport edges (default 20px).
 */
@element('chatbot-widget')
export class ChatbotWidget extends LitElement {
  static override styles = styles;

  /** The chatbot to talk to. */
  @property({ attribute: 'chatbot-id' }) chatbotId = '';
  /** Origin of the Parley service; defaults to where widget.js was loaded from. */
  @property({ attribute: 'api-base' }) apiBase = '';
  /** `bubble` (a launcher in a corner) or `page` (the chat fills the element). */
  @property({ reflect: true }) mode: 'bubble' | 'page' = 'bubble';
  /** Whether the chat window is open (always true in page mode). */
  @property({ type: Boolean, reflect: true }) open = false;

  @state() private config: EmbedConfig | undefined;
  @state() private unavailable = '';
  @state() private popupsVisible = false;
  /** The panel is created on first open and then kept, so a running answer survives closing. */
  @state() private panelCreated = false;
  @query('.launcher') private launcher?: HTMLButtonElement;

  /** The transport; tests replace it before the element connects. */
  api: EmbedApi | undefined;
  private popupTimer: number | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.popupTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('chatbotId') || changed.has('apiBase')) && this.chatbotId) void this.load();
    if (changed.has('open') && this.open) this.panelCreated = true;
  }

  private get popupKey(): string {
    return `parley.${this.chatbotId}.popups-dismissed`;
  }

  private async load(): Promise<void> {
    const base = (this.apiBase || widgetDefaults.apiBase || location.origin).replace(/\/+$/, '');
    if (!this.api || this.api.chatbotId !== this.chatbotId) this.api = new EmbedClient(base, this.chatbotId);
    this.config = undefined;
    this.unavailable = '';
    let config: EmbedConfig;
    try {
      config = await this.api.getConfig();
    } catch (err) {
      const error = err instanceof EmbedError ? err : new EmbedError(0);
      this.unavailable = error.status === 403 ? strings.unavailable : strings.loadFailed;
      // The owner debugging a missing widget sees why in the console, not just a failed request.
      if (error.status > 0) console.warn(`[parley] the chat widget is not shown (${error.status}): ${error.messages.join('; ') || error.message}`);
      this.dispatchEvent(new WidgetErrorEvent(error.status, error.messages));
      return;
    }
    // The texts' language before the first paint: the launcher's name is already translated.
    await useLanguage(config.locale);
    this.config = config;
    if (this.mode === 'page') this.open = true;
    if (this.config.bubblePopupMessages.length > 0 && !storage.read(this.popupKey)) {
      // A short delay so the popup does not compete with the page's own first paint.
      this.popupTimer = window.setTimeout(() => { this.popupsVisible = !this.open; }, 1200);
    }
  }

  /** Opens or closes the chat window. */
  toggle(open = !this.open): void {
    if (this.mode === 'page' || open === this.open) return;
    this.open = open;
    // A visitor who opened the chat has seen what the popups invite to: they do not come back.
    if (open && this.config?.bubblePopupMessages.length) this.dismissPopups();
    this.dispatchEvent(new OpenChangeEvent(open));
    if (!open) void this.updateComplete.then(() => this.launcher?.focus());
  }

  private dismissPopups(): void {
    this.popupsVisible = false;
    storage.write(this.popupKey, true);
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.open && this.mode === 'bubble') {
      event.stopPropagation();
      this.toggle(false);
    }
  }

  protected override render() {
    if (!this.config || !this.api) {
      return this.mode === 'page' && this.unavailable ? html`<p class="unavailable" role="alert">${this.unavailable}</p>` : nothing;
    }
    const config = this.config;
    const page = this.mode === 'page';
    return html`
      <div class="root align-${config.bubbleAlignment} ${page ? 'page' : 'bubble'}" style=${styleMap(themeOf(config))}
        dir=${language.dir} lang=${language.tag} @keydown=${this.onKeydown}>
        ${this.panelCreated || page ? html`
          <cw-chat-panel id="panel" .config=${config} .api=${this.api} .mode=${this.mode} side=${config.bubbleAlignment} ?hidden=${!this.open}
            .active=${this.open} @cw-close=${() => this.toggle(false)}></cw-chat-panel>` : nothing}
        ${!page && this.popupsVisible && !this.open ? html`
          <cw-popup-messages .messages=${config.bubblePopupMessages} .side=${config.bubbleAlignment}
            @cw-popup-open=${() => this.toggle(true)} @cw-popup-dismiss=${this.dismissPopups}></cw-popup-messages>` : nothing}
        ${page ? nothing : html`
          <button class="launcher" part="launcher" aria-haspopup="dialog" aria-controls="panel" aria-expanded=${String(this.open)}
            aria-label=${format(this.open ? strings.closeChatWith : strings.openChat, { name: config.name })} @click=${() => this.toggle()}>
            ${this.open ? icons.close : icons.chat}
          </button>`}
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-widget': ChatbotWidget;
  }
}
