import { LitElement, css, html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { element } from '../../internal/define.js';
import type { EmbedSession } from '@parley/shared';
import type { EmbedApi } from '../../api/embed-client.js';
import { EmbedError } from '../../api/embed-error.js';
import { WidgetErrorEvent } from '../../events/widget-events.js';
import { baseStyles } from '../../styles/base.styles.js';
import { icons } from '../../styles/icons.js';
import { formStyles } from '../form.styles.js';
import { strings } from '../../i18n/i18n.js';

/**
 * @summary Asks for a PRIVATE chatbot's password and exchanges it for a session token.
 * @event cw-unlocked - The password was right; `event.detail` is the session.
 */
@element('cw-password-gate')
export class CwPasswordGate extends LitElement {
  static override styles = [baseStyles, formStyles, css`
    .lock {
      display: grid;
      place-items: center;
      width: 48px;
      height: 48px;
      margin-bottom: 12px;
      border-radius: 50%;
      background: color-mix(in srgb, var(--cw-accent) 14%, transparent);
      color: var(--cw-accent);
    }
  `];

  @property({ attribute: false }) api!: EmbedApi;

  @state() private error = '';
  @state() private busy = false;
  @query('input') private input?: HTMLInputElement;

  override focus(): void {
    this.input?.focus();
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const password = this.input?.value ?? '';
    if (!password) {
      this.error = strings.passwordMissing;
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const session = await this.api.createSession(password);
      this.dispatchEvent(new CustomEvent<EmbedSession>('cw-unlocked', { detail: session, bubbles: true, composed: true }));
    } catch (err) {
      const error = err instanceof EmbedError ? err : new EmbedError(0);
      this.error = error.status === 401 ? strings.passwordWrong
        : error.status === 429 ? strings.passwordTooMany : strings.passwordFailed;
      this.dispatchEvent(new WidgetErrorEvent(error.status, error.messages));
      this.input?.select();
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    return html`
      <span class="lock" aria-hidden="true">${icons.lock}</span>
      <h3>${strings.privateTitle}</h3>
      <p class="hint">${strings.privateHint}</p>
      <form @submit=${this.submit}>
        ${this.error ? html`<p class="error" id="error" role="alert">${this.error}</p>` : nothing}
        <label>${strings.password} <input type="password" autocomplete="current-password" maxlength="200"
          aria-invalid=${String(Boolean(this.error))} aria-describedby=${this.error ? 'error' : nothing} /></label>
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? strings.checking : strings.unlock}</button>
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cw-password-gate': CwPasswordGate;
  }
}
