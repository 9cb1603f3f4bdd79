import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import { baseStyles } from '../../styles/base.styles.js';
import { strings } from '../../i18n/i18n.js';
import { icons } from '../../styles/icons.js';

/**
 * @summary The owner's teaser messages above the closed launcher; a click opens the chat.
 * @event cw-popup-open - The visitor clicked a message.
 * @event cw-popup-dismiss - The visitor closed the messages (they are not shown again).
 */
@element('cw-popup-messages')
export class CwPopupMessages extends LitElement {
  static override styles = [baseStyles, css`
    :host {
      position: fixed;
      bottom: calc(var(--cw-offset) + 68px);
      display: flex;
      flex-direction: column;
      gap: 8px;
      max-width: min(300px, calc(100vw - 2 * var(--cw-offset)));
      animation: rise 240ms ease-out both;
      /* The launcher's corner is physical: in an RTL widget flex-end would be the left. */
      direction: ltr;
    }
    :host([side='right']) { right: var(--cw-offset); align-items: flex-end; }
    :host([side='left']) { left: var(--cw-offset); align-items: flex-start; }
    .message {
      display: block;
      text-align: start;
      padding: 10px 14px;
      border: 0;
      border-radius: 14px;
      background: #ffffff;
      color: #111827;
      box-shadow: 0 6px 24px rgb(15 23 42 / 0.16), 0 1px 3px rgb(15 23 42 / 0.1);
      line-height: 1.4;
    }
    .message:hover { box-shadow: 0 8px 28px rgb(15 23 42 / 0.22), 0 1px 3px rgb(15 23 42 / 0.1); }
    .dismiss {
      width: 28px;
      height: 28px;
      border-radius: 50%;
      background: #ffffff;
      color: #4b5563;
      box-shadow: 0 2px 8px rgb(15 23 42 / 0.16);
    }
    .dismiss svg { width: 14px; height: 14px; }
    @keyframes rise {
      from { opacity: 0; transform: translateY(8px); }
    }
  `];

  /** The messages to show (at most 5, from the chatbot's websiteIntegration). */
  @property({ attribute: false }) messages: string[] = [];
  /** Which corner the launcher sits in. */
  @property({ reflect: true }) side: 'left' | 'right' = 'right';

  protected override render() {
    const fire = (name: string) => () => this.dispatchEvent(new Event(name, { bubbles: true, composed: true }));
    return html`
      <button class="icon-button dismiss" aria-label=${strings.dismissPopups} @click=${fire('cw-popup-dismiss')}>${icons.close}</button>
      ${this.messages.map((text) => html`<button class="message" dir="auto" @click=${fire('cw-popup-open')}>${text}</button>`)}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-popup-messages': CwPopupMessages;
  }
}
