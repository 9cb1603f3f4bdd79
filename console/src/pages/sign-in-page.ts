import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { memberContract, sessionContract, type SessionCreate } from '@parley/shared';
import { ApiError, call } from '../api/api-client.js';
import { PageElement } from '../app/page-element.js';

type Mode = 'password' | 'key' | 'forgot';

/** What a refused sign-in tells the person. */
function signInError(err: unknown, mode: Mode): string {
  if (err instanceof ApiError && err.status === 401) {
    return mode === 'key' ? 'That API key is not valid, or it was revoked.' : 'The e-mail address or password is wrong.';
  }
  // A 429 has no body (decisions.md § Errors): sign-in attempts are limited per 15 minutes.
  if (err instanceof ApiError && err.status === 429) return 'Too many sign-in attempts. Wait a few minutes, then try again.';
  return err instanceof ApiError ? err.messages.join(' ') : 'The service did not answer. Try again.';
}

/**
 * @summary Sign-in: a member's e-mail and password, or an API key pasted once (first run, or the
 * operator); the server answers with an HttpOnly session cookie, so no secret is kept by the page.
 * The e-mail form comes first once any member account exists.
 * @event signed-in - The session started (`detail` is the session).
 */
@customElement('sign-in-page')
export class SignInPage extends PageElement {
  @state() private error = '';
  @state() private busy = false;
  @state() private mode: Mode | undefined;
  /** Whether the service sends mail, so a forgotten password can be reset by an e-mailed link. */
  @state() private mail = false;
  /** Set once a reset link was asked for: what the person is told. */
  @state() private resetAsked = '';

  override connectedCallback(): void {
    super.connectedCallback();
    call(sessionContract.methods, {})
      .then((methods) => { this.mode ??= methods.password ? 'password' : 'key'; this.mail = methods.mail === true; })
      .catch(() => { this.mode ??= 'key'; });
  }

  private switchTo(mode: Mode): void {
    this.mode = mode;
    this.error = '';
    this.resetAsked = '';
    void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('form input')?.focus());
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
    const mode = this.mode ?? 'key';
    const body: SessionCreate = mode === 'key' ? { apiKey: value('apiKey').trim() } : { email: value('email').trim(), password: value('password') };
    this.busy = true;
    this.error = '';
    try {
      const session = await call(sessionContract.create, { body });
      form.reset();
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true }));
    } catch (err) {
      this.error = signInError(err, mode);
      form.querySelector<HTMLInputElement>(mode === 'key' ? 'input' : 'input[name=password]')?.focus();
    } finally {
      this.busy = false;
    }
  }

  private async askReset(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const email = (form.elements.namedItem('email') as HTMLInputElement).value.trim();
    this.busy = true;
    this.error = '';
    try {
      await call(memberContract.requestPasswordReset, { body: { email } });
      this.resetAsked = `If ${email} has an account, a link to choose a new password is on its way. It works once, for one hour.`;
    } catch (err) {
      this.error = err instanceof ApiError && err.status === 429 ? 'Too many attempts. Wait a few minutes, then try again.'
        : err instanceof ApiError ? err.messages.join(' ') : 'The service did not answer. Try again.';
    } finally {
      this.busy = false;
    }
  }

  private renderForgotForm() {
    return html`
      <p>Enter your account's e-mail address; we mail you a link to choose a new password.</p>
      ${this.resetAsked ? html`<p role="status">${this.resetAsked}</p>` : html`
        <form @submit=${this.askReset}>
          <div class="field"><label for="reset-email">E-mail address</label>
            <input id="reset-email" name="email" type="email" autocomplete="username" required spellcheck="false"
              aria-invalid=${this.error ? 'true' : 'false'} aria-describedby=${this.error ? 'reset-error' : nothing}></div>
          ${this.renderError('reset-error')}
          <div class="row"><button type="submit" ?disabled=${this.busy}>Send the link</button></div>
        </form>`}
      <p><button type="button" class="secondary" @click=${() => this.switchTo('password')}>Back to sign-in</button></p>`;
  }

  private renderError(id: string) {
    return this.error ? html`<p id=${id} class="error" role="alert">${this.error}</p>` : nothing;
  }

  private renderPasswordForm() {
    return html`
      <p>Sign in with your e-mail address and password.</p>
      <form @submit=${this.submit}>
        <div class="field"><label for="email">E-mail address</label>
          <input id="email" name="email" type="email" autocomplete="username" required spellcheck="false"></div>
        <div class="field"><label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required
            aria-invalid=${this.error ? 'true' : 'false'} aria-describedby=${this.error ? 'sign-in-error' : nothing}></div>
        ${this.renderError('sign-in-error')}
        <div class="row"><button type="submit" ?disabled=${this.busy}>Sign in</button>
          <button type="button" class="secondary" @click=${() => this.switchTo('key')}>Use an API key instead</button></div>
      </form>
      ${this.mail
        ? html`<p><button type="button" class="link" @click=${() => this.switchTo('forgot')}>Forgot your password?</button></p>`
        : html`<p class="hint">Forgot your password? Ask your organisation's owner, or the operator can set a new one with <code>npm run keys -- reset-password</code>.</p>`}`;
  }

  private renderKeyForm() {
    return html`
      <p>Paste an API key of your organisation. <code>npm start</code> prints the first one; <code>npm run keys</code> makes more.</p>
      <form @submit=${this.submit}>
        <label for="api-key">API key</label>
        <input id="api-key" name="apiKey" type="password" autocomplete="off" required spellcheck="false"
          aria-invalid=${this.error ? 'true' : 'false'} aria-describedby=${this.error ? 'api-key-error' : nothing}>
        ${this.renderError('api-key-error')}
        <div class="row"><button type="submit" ?disabled=${this.busy}>Sign in</button>
          <button type="button" class="secondary" @click=${() => this.switchTo('password')}>Use e-mail and password instead</button></div>
      </form>`;
  }

  override render() {
    return html`
      <main id="main" class="sign-in">
        <h1 tabindex="-1">Sign in to Parley</h1>
        ${this.mode === undefined ? html`<p role="status">Loading…</p>` : this.mode === 'key' ? this.renderKeyForm()
          : this.mode === 'forgot' ? this.renderForgotForm() : this.renderPasswordForm()}
      </main>
    `;
  }
}
