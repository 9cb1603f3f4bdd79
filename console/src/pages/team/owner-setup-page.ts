import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { memberContract, sessionContract } from '@parley/shared';
import { call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { field, messageOf, PASSWORD_HINT, valueOf } from './member-form.js';

/**
 * @summary First run: signed in with the key printed at start, the owner creates the OWNER
 * account; the console then goes on as that member, and people sign in with e-mail and password.
 * @event session-changed - The console is now the owner's (`detail` is the session).
 */
@customElement('owner-setup-page')
export class OwnerSetupPage extends PageElement {
  @state() private error = '';
  @state() private busy = false;

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.busy = true;
    this.error = '';
    try {
      await call(memberContract.createOwner, { body: { email: valueOf(form, 'email').trim(), name: valueOf(form, 'name').trim(), password: valueOf(form, 'password') } });
      // The server switched the cookie to the owner's session: fetch its CSRF token.
      const session = await call(sessionContract.get, {});
      this.dispatchEvent(new CustomEvent('session-changed', { detail: session, bubbles: true }));
    } catch (err) {
      this.error = messageOf(err, 'The account could not be created. Try again.');
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`
      <h1 tabindex="-1">Create the owner account</h1>
      <p>You signed in with the organisation's API key. Create your own account: from now on you and the people you invite
        sign in with e-mail and password, and the key stays for API clients.</p>
      <form class="card" @submit=${this.submit}>
        ${field('email', 'E-mail address', { type: 'email', autocomplete: 'username' })}
        ${field('name', 'Your name', { autocomplete: 'name' })}
        ${field('password', 'Password', { type: 'password', autocomplete: 'new-password', hint: PASSWORD_HINT })}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit" ?disabled=${this.busy}>Create owner account</button>
      </form>
    `;
  }
}
