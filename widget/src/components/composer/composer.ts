import { LitElement, html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import { widgetDefaults } from '../../internal/widget-defaults.js';
import type * as EmojiModule from '../../lazy/emoji-data.js';
import { language, strings } from '../../i18n/i18n.js';
import { icons } from '../../styles/icons.js';
import { styles } from './composer.styles.js';

/** `cw-send`: the visitor submitted a message. */
export class ComposerSendEvent extends Event {
  constructor(readonly text: string) {
    super('cw-send', { bubbles: true, composed: true });
  }
}

/**
 * @summary The message box: Enter sends, Shift+Enter adds a line; a stop button while the
 * answer streams; an emoji picker (loaded on first use) when the chatbot enables it.
 * @event cw-send - The visitor sent `event.text`.
 * @event cw-stop - The visitor stopped the answer.
 */
@element('cw-composer')
export class CwComposer extends LitElement {
  static override styles = styles;

  /** An answer is streaming: the send button becomes a stop button. */
  @property({ type: Boolean }) streaming = false;
  /** Show the emoji button. */
  @property({ type: Boolean }) emoji = false;

  @state() private emojis: string[] | undefined;
  @state() private pickerOpen = false;
  @state() private empty = true;
  @query('textarea') private textarea!: HTMLTextAreaElement;

  override connectedCallback(): void {
    super.connectedCallback();
    // On the host, not the textarea: focus may be on an emoji button when Escape is pressed.
    this.addEventListener('keydown', this.onEscape);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('keydown', this.onEscape);
  }

  override focus(): void {
    this.textarea?.focus();
  }

  /** Escape closes the emoji picker only, never the whole chat behind it. */
  private readonly onEscape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.pickerOpen) return;
    event.stopPropagation();
    this.pickerOpen = false;
    this.textarea.focus();
  };

  private send(): void {
    const text = this.textarea.value.trim();
    if (!text || this.streaming) return;
    this.dispatchEvent(new ComposerSendEvent(text));
    this.textarea.value = '';
    this.onInput();
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
  }

  private onInput(): void {
    const area = this.textarea;
    this.empty = area.value.trim() === '';
    // Grow with the text up to five lines; an empty box goes back to one line.
    area.style.height = '';
    if (!this.empty) area.style.height = `${Math.min(area.scrollHeight, 120)}px`;
  }

  private async togglePicker(): Promise<void> {
    this.pickerOpen = !this.pickerOpen;
    // The emoji list is a separate file, fetched only when the visitor first opens the picker.
    if (this.pickerOpen && !this.emojis) {
      try {
        const url = widgetDefaults.chunks.emoji;
        if (!url) throw new Error('no emoji file in this build');
        this.emojis = ((await import(/* @vite-ignore */ url)) as typeof EmojiModule).EMOJIS;
      } catch {
        this.pickerOpen = false;
      }
    }
  }

  private insert(emoji: string): void {
    const area = this.textarea;
    const at = area.selectionStart ?? area.value.length;
    area.value = area.value.slice(0, at) + emoji + area.value.slice(area.selectionEnd ?? at);
    area.selectionStart = area.selectionEnd = at + emoji.length;
    this.pickerOpen = false;
    this.onInput();
    area.focus();
  }

  private renderPicker() {
    if (!this.pickerOpen) return nothing;
    return html`
      <div class="picker" role="dialog" aria-label=${strings.emoji}>
        ${this.emojis ? this.emojis.map((e) => html`<button type="button" @click=${() => this.insert(e)}>${e}</button>`)
          : html`<span class="loading">…</span>`}
      </div>`;
  }

  protected override render() {
    return html`
      ${this.renderPicker()}
      <form @submit=${(e: Event) => { e.preventDefault(); this.send(); }}>
        ${this.emoji ? html`
          <button type="button" class="icon-button" aria-label=${strings.insertEmoji} aria-expanded=${String(this.pickerOpen)}
            @click=${this.togglePicker}>${icons.smile}</button>` : nothing}
        <label class="visually-hidden" for="input">${strings.message}</label>
        <textarea id="input" rows="1" maxlength="4000" placeholder=${strings.placeholder} enterkeyhint="send"
          dir=${this.empty ? language.dir : 'auto'}
          @keydown=${this.onKeydown} @input=${this.onInput}></textarea>
        ${this.streaming
          ? html`<button type="button" class="action" aria-label=${strings.stop} @click=${() => this.dispatchEvent(new Event('cw-stop', { bubbles: true, composed: true }))}>${icons.stop}</button>`
          : html`<button type="submit" class="action" aria-label=${strings.send} ?disabled=${this.empty}><span class="flip-rtl">${icons.send}</span></button>`}
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-composer': CwComposer;
  }
}
