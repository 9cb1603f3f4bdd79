import { LitElement, css, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import type { LeadCapture } from '@parley/shared';
import type { EmbedApi } from '../../api/embed-client.js';
import { element } from '../../internal/define.js';
import { strings } from '../../i18n/i18n.js';
import { baseStyles } from '../../styles/base.styles.js';
import { icons } from '../../styles/icons.js';
import '../lead-form/lead-form.js';

/**
 * @summary The lead form offered inside the conversation (after a refusal, a request for a person
 * or the owner's number of answers), with a button to decline it.
 * @event cw-lead-offer-close - The visitor declined the offer.
 * @event cw-lead-submitted - The service stored the lead (from the form inside).
 */
@element('cw-lead-offer')
export class CwLeadOffer extends LitElement {
  static override styles = [baseStyles, css`
    :host { display: block; }
    .offer {
      position: relative;
      padding: 12px 14px;
      border: 1px solid rgb(15 23 42 / 0.14);
      border-radius: 14px;
      background: #ffffff;
      color: #111827;
    }
    p {
      margin: 0 0 8px;
      padding-inline-end: 30px;
      font-weight: 600;
    }
    .close {
      position: absolute;
      inset-block-start: 4px;
      inset-inline-end: 4px;
      width: 30px;
      height: 30px;
    }
  `];

  @property({ attribute: false }) api!: EmbedApi;
  /** What the lead is linked to: the conversation and the page (see cw-lead-form). */
  @property({ attribute: false }) context: () => Promise<Pick<LeadCapture, 'conversationId' | 'pageUrl'>> = async () => ({});
  /** The lead was sent: the thanks stay, the decline button goes. */
  @property({ type: Boolean }) sent = false;

  protected override render() {
    return html`
      <div class="offer" role="group" aria-labelledby="offer-text">
        <p id="offer-text">${strings.leadOffer}</p>
        ${this.sent ? nothing : html`<button class="close icon-button" aria-label=${strings.cancel}
          @click=${() => this.dispatchEvent(new Event('cw-lead-offer-close', { bubbles: true, composed: true }))}>${icons.close}</button>`}
        <cw-lead-form inline .api=${this.api} .context=${this.context}></cw-lead-form>
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-lead-offer': CwLeadOffer;
  }
}
