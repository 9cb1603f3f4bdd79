import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { sessionContract } from '@parley/shared';
import { ApiError, call } from '../api/api-client.js';
import { PageElement } from '../app/page-element.js';

/**
 * @summary Sign-in: the owner pastes an API key once; the server answers with an HttpOnly session
 * cookie, so the key is never kept by the page.
 * @event signed-in - The session started (`detail` is the session).
 */
@customElement('sign-in-page')
export class SignInPage extends PageElement {
  @state() private error = '';
  @state() private busy = false;

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('apiKey') as HTMLInputElement;
    this.busy = true;
    this.error = '';
    try {
      const session = await call(sessionContract.create, { body: { apiKey: input.value.trim() } });
      input.value = '';
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true }));
    } catch (err) {
      this.error = err instanceof ApiError && err.status === 401 ? 'That API key is not valid, or it was revoked.'
        // A 429 has no body (decisions.md § Errors): sign-in attempts are limited per 15 minutes.
        : err instanceof ApiError && err.status === 429 ? 'Too many sign-in attempts. Wait a few minutes, then try again.'
          : err instanceof ApiError ? err.messages.join(' ') : 'The service did not answer. Try again.';
      input.focus();
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`
      <main id="main" class="sign-in">
        <h1 tabindex="-1">Sign in to Parley</h1>
        <p>Paste an API key of your organisation. <code>npm start</code> prints the first one; <code>npm run keys</code> makes more.</p>
        <form @submit=${this.submit}>
          <label for="api-key">API key</label>
          <input id="api-key" name="apiKey" type="password" autocomplete="off" required spellcheck="false"
            aria-invalid=${this.error ? 'true' : 'false'} aria-describedby=${this.error ? 'api-key-error' : nothing}>
          ${this.error ? html`<p id="api-key-error" class="error" role="alert">${this.error}</p>` : nothing}
          <button type="submit" ?disabled=${this.busy}>Sign in</button>
        </form>
      </main>
    `;
  }
}
