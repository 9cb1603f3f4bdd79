import { LitElement, css, html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { FeedbackRating } from '@parley/shared';
import { element } from '../../internal/define.js';
import { strings } from '../../i18n/i18n.js';
import { baseStyles } from '../../styles/base.styles.js';
import { icons } from '../../styles/icons.js';

/** `cw-rate`: the visitor rated an answer (and, after 👎, maybe said why). */
export class RateEvent extends Event {
  constructor(readonly rating: FeedbackRating, readonly comment?: string) {
    super('cw-rate', { bubbles: true, composed: true });
  }
}

/**
 * @summary 👍/👎 under an answer; 👎 opens an optional comment box.
 * @event cw-rate - The visitor rated the answer (`event.rating`, `event.comment`).
 */
@element('cw-answer-feedback')
export class CwAnswerFeedback extends LitElement {
  static override styles = [baseStyles, css`
    :host { display: block; margin-block-start: 4px; font-size: 13px; }
    .buttons { display: flex; gap: 2px; }
    .buttons button {
      display: inline-grid; place-items: center; width: 30px; height: 30px; padding: 0;
      border: 1px solid transparent; border-radius: 8px; background: transparent; color: #4b5563;
    }
    .buttons svg { width: 16px; height: 16px; }
    .buttons button:hover { background: rgb(15 23 42 / 0.06); }
    .buttons button[aria-pressed='true'] { border-color: rgb(15 23 42 / 0.25); background: rgb(15 23 42 / 0.06); }
    form { display: flex; flex-wrap: wrap; gap: 6px; margin-block-start: 6px; }
    textarea {
      flex: 1 1 100%; min-height: 56px; padding: 7px 9px; border: 1px solid rgb(15 23 42 / 0.25); border-radius: 8px;
      background: #ffffff; color: #111827; font-size: 16px; resize: vertical;
    }
    form button { padding: 5px 11px; border: 1px solid currentColor; border-radius: 999px; background: transparent; font-weight: 600; }
    .thanks { margin: 4px 0 0; color: inherit; opacity: 0.85; }
  `];

  /** The rating already given (from this browser's copy of the conversation). */
  @property({ attribute: false }) rating: FeedbackRating | undefined;

  @state() private commenting = false;
  @state() private thanked = false;
  @query('textarea') private comment?: HTMLTextAreaElement;

  private rate(rating: FeedbackRating): void {
    if (rating === 'down') {
      this.commenting = true;
      void this.updateComplete.then(() => this.comment?.focus());
    } else {
      this.commenting = false;
      this.thanked = true;
    }
    this.dispatchEvent(new RateEvent(rating));
  }

  private sendComment(event: Event): void {
    event.preventDefault();
    const text = this.comment?.value.trim();
    this.closeComment();
    if (text) this.dispatchEvent(new RateEvent('down', text));
  }

  /** Closes the comment box; the focus it had goes back to 👎 instead of the page's start. */
  private closeComment(): void {
    this.commenting = false;
    this.thanked = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.down')?.focus());
  }

  protected override render() {
    return html`
      <div class="buttons" role="group" aria-label=${`${strings.helpful} / ${strings.notHelpful}`}>
        <button aria-label=${strings.helpful} title=${strings.helpful} aria-pressed=${String(this.rating === 'up')} @click=${() => this.rate('up')}>${icons.thumbUp}</button>
        <button class="down" aria-label=${strings.notHelpful} title=${strings.notHelpful} aria-pressed=${String(this.rating === 'down')} @click=${() => this.rate('down')}>${icons.thumbDown}</button>
      </div>
      ${this.commenting ? html`
        <form @submit=${this.sendComment}>
          <textarea aria-label=${strings.feedbackComment} placeholder=${strings.feedbackComment} maxlength="2000" dir="auto"></textarea>
          <button type="submit">${strings.feedbackSend}</button>
          <button type="button" @click=${() => this.closeComment()}>${strings.feedbackSkip}</button>
        </form>` : nothing}
      ${this.thanked && !this.commenting ? html`<p class="thanks" role="status">${strings.feedbackThanks}</p>` : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-answer-feedback': CwAnswerFeedback;
  }
}
