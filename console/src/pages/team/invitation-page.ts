import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { memberContract, sessionContract } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { field, messageOf, PASSWORD_HINT, valueOf } from './member-form.js';

/**
 * @summary An invitation link (`/console/invitation#<token>`): the invitee sets a name and
 * password, and is signed in. The token sits in the fragment, which browsers never send.
 * @event signed-in - The new member's session started (`detail` is the session).
 */
@customElement('invitation-page')
export class InvitationPage extends PageElement {
  @state() private error = '';
  @state() private busy = false;
  private readonly token = location.hash.slice(1);

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const password = valueOf(form, 'password');
    this.busy = true;
    this.error = '';
    try {
      const member = await call(memberContract.accept, { params: { token: this.token }, body: { name: valueOf(form, 'name').trim(), password } });
      const session = await call(sessionContract.create, { body: { email: member.email, password } });
      history.replaceState(null, '', '/console/chatbots');
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true }));
    } catch (err) {
      this.error = err instanceof ApiError && err.status === 404 ? 'This invitation was used already or has expired. Ask for a new one.'
        : messageOf(err, 'The invitation could not be accepted. Try again.');
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`
      <main id="main" class="sign-in">
        <h1 tabindex="-1">Join your team on Parley</h1>
        ${/^[\w-]{43}$/.test(this.token) ? html`
          <p>Choose the name your colleagues see and a password. You sign in with the e-mail address you were invited at.</p>
          <form @submit=${this.submit}>
            ${field('name', 'Your name', { autocomplete: 'name' })}
            ${field('password', 'Password', { type: 'password', autocomplete: 'new-password', hint: PASSWORD_HINT })}
            ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
            <button type="submit" ?disabled=${this.busy}>Create account</button>
          </form>`
          : html`<p class="error" role="alert">This invitation link is incomplete. Copy the whole link you were given.</p>`}
        <p><a href="/console/sign-in">Sign in instead</a></p>
      </main>
    `;
  }
}
