import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { chatbotContract, type ChatMessage, type EmbedConfig } from '@parley/shared';
import { streamChat } from '../../api/chat-stream.js';
import { PageElement } from '../../app/page-element.js';

let widgetScript: Promise<void> | undefined;

/** Loads the real widget (the same /widget.js site owners paste) once; it defines <chatbot-widget>. */
function loadWidget(): Promise<void> {
  widgetScript ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.async = true;
    script.onload = () => customElements.whenDefined('chatbot-widget').then(() => resolve());
    script.onerror = () => { widgetScript = undefined; reject(new Error('the widget script could not be loaded')); };
    document.head.append(script);
  });
  return widgetScript;
}

/**
 * The widget's transport for the preview: the unsaved settings as its config, answers from the
 * owner's API (the saved chatbot's knowledge); preview chats are not saved as conversations.
 */
function previewApi(config: EmbedConfig) {
  return {
    chatbotId: config.id,
    token: undefined,
    getConfig: async () => config,
    createSession: async () => { throw new Error('the preview needs no password'); },
    streamChat: async (conversation: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal) => {
      await streamChat(chatbotContract.chatStream, { chatbotId: config.id, conversation }, onDelta, signal);
    },
    saveConversation: async () => { throw new Error('preview conversations are not saved'); },
    captureLead: async () => { throw new Error('the preview does not keep leads'); },
  };
}

/** @summary The real `<chatbot-widget>` rendered with settings that are not saved yet. */
@customElement('widget-preview')
export class WidgetPreview extends PageElement {
  @property({ attribute: false }) config: EmbedConfig | undefined;
  /** `page`: the open chat window; `bubble`: the launcher (with popup messages) as on a site. */
  @property() mode: 'page' | 'bubble' = 'page';
  private failure = '';

  protected override async updated(): Promise<void> {
    const config = this.config;
    const frame = this.querySelector('.preview-frame');
    if (!config || !frame) return;
    try {
      await loadWidget();
    } catch (err) {
      this.failure = (err as Error).message;
      this.requestUpdate();
      return;
    }
    // A new element per change: the widget reads its config once, when it connects.
    const widget = document.createElement('chatbot-widget') as HTMLElement & { api?: unknown };
    widget.api = previewApi(config);
    if (this.mode === 'page') widget.setAttribute('mode', 'page');
    widget.setAttribute('chatbot-id', config.id);
    widget.style.height = '100%';
    const owner = document.activeElement;
    const scrollY = window.scrollY;
    frame.replaceChildren(widget);
    this.keepFocus(owner, widget, scrollY);
  }

  /**
   * The widget moves focus into its chat window when it opens, and the preview opens a new one on
   * every change and when the page opens: that focus (and the scroll it causes) is given back to
   * where the owner was, the form field or the page's heading. Focus the owner moves into the
   * preview themselves (a Tab, a click) stays there.
   */
  private keepFocus(owner: Element | null, widget: HTMLElement, scrollY: number): void {
    if (owner instanceof HTMLElement && this.contains(owner)) return;
    let active = true;
    const restore = () => {
      if (!active) return;
      if (owner instanceof HTMLElement && owner !== document.body && owner.isConnected) owner.focus({ preventScroll: true });
      else document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
      window.scrollTo({ top: scrollY });
    };
    const stop = () => {
      active = false;
      widget.removeEventListener('focusin', restore);
      document.removeEventListener('keydown', onKey, true);
      widget.removeEventListener('pointerdown', stop, true);
    };
    const onKey = (event: KeyboardEvent) => { if (event.key === 'Tab') stop(); };
    widget.addEventListener('focusin', restore);
    widget.addEventListener('pointerdown', stop, true);
    document.addEventListener('keydown', onKey, true);
    setTimeout(stop, 2000);
  }

  override render() {
    return html`<section aria-labelledby="preview-heading">
      <h2 id="preview-heading">Live preview <span class="muted">(unsaved settings)</span></h2>
      <div class="field"><label for="preview-mode">Preview of</label>
        <select id="preview-mode" @change=${(e: Event) => { this.mode = (e.target as HTMLSelectElement).value as 'page' | 'bubble'; }}>
          <option value="page" ?selected=${this.mode === 'page'}>The chat window</option>
          <option value="bubble" ?selected=${this.mode === 'bubble'}>The bubble on a page (popup messages, alignment)</option>
        </select></div>
      ${this.failure ? html`<p class="error" role="alert">${this.failure}</p>` : ''}
      <div class="preview-frame" data-testid="widget-preview"></div>
    </section>`;
  }
}
