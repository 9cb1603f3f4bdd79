import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { memberContract } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { field, messageOf, PASSWORD_HINT, valueOf } from './member-form.js';

/**
 * @summary A password reset link (`/console/password-reset#<token>`, e-mailed): the member sets a
 * new password; its sessions end, and it signs in again. The token sits in the fragment, which
 * browsers never send.
 */
@customElement('password-reset-page')
export class PasswordResetPage extends PageElement {
  @state() private error = '';
  @state() private busy = false;
  @state() private done = false;
  private readonly token = location.hash.slice(1);

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.busy = true;
    this.error = '';
    try {
      await call(memberContract.resetPassword, { params: { token: this.token }, body: { password: valueOf(form, 'password') } });
      history.replaceState(null, '', '/console/password-reset');
      this.done = true;
    } catch (err) {
      this.error = err instanceof ApiError && err.status === 404 ? 'This link was used already or has expired. Ask for a new one from the sign-in page.'
        : err instanceof ApiError && err.status === 429 ? 'Too many attempts. Wait a few minutes, then try again.'
          : messageOf(err, 'The password could not be changed. Try again.');
    } finally {
      this.busy = false;
    }
  }

  private renderForm() {
    if (!/^[\w-]{43}$/.test(this.token)) return html`<p class="error" role="alert">This link is incomplete. Copy the whole link from the mail.</p>`;
    return html`
      <p>Choose a new password. Once it is set, your account is signed out everywhere; sign in with the new one.</p>
      <form @submit=${this.submit}>
        ${field('password', 'New password', { type: 'password', autocomplete: 'new-password', hint: PASSWORD_HINT })}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit" ?disabled=${this.busy}>Set password</button>
      </form>`;
  }

  override render() {
    return html`
      <main id="main" class="sign-in">
        <h1 tabindex="-1">Choose a new password</h1>
        ${this.done ? html`<p role="status">Your password is changed. Sign in with it.</p>` : this.renderForm()}
        <p><a href="/console/sign-in">Sign in</a></p>
      </main>
    `;
  }
}
