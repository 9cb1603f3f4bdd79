import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { memberContract, RoleSchema, sessionContract, type Invitation, type Member, type Role } from '@parley/shared';
import { call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { currentSession } from '../../app/session-state.js';
import '../../components/confirm-dialog.js';
import type { ConfirmDialog } from '../../components/confirm-dialog.js';
import '../../components/copy-button.js';
import { messageOf, settingsNav, valueOf } from './member-form.js';

const ROLE_HINTS: Record<Role, string> = {
  OWNER: 'everything, members and API keys included',
  ADMIN: 'everything but members and API keys',
  AGENT: 'conversations, leads and the playground; reads chatbots and knowledge',
};

/** @summary Settings → Members: who can sign in, with which role; invite by link, remove. */
@customElement('members-page')
export class MembersPage extends PageElement {
  @state() private members: Member[] | undefined;
  @state() private invitation: (Invitation & { email: string }) | undefined;
  @state() private error = '';
  @state() private message = '';
  @query('confirm-dialog') private confirmDialog!: ConfirmDialog;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    this.members = await call(memberContract.list, {});
  }

  private async invite(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const email = valueOf(form, 'invite-email').trim();
    this.error = '';
    try {
      const invitation = await call(memberContract.invite, { body: { email, role: valueOf(form, 'invite-role') as Role } });
      this.invitation = { ...invitation, email };
      form.reset();
    } catch (err) {
      this.error = messageOf(err, 'The invitation could not be made.');
    }
  }

  /** Renames the signed-in member; the shell shows the new name. */
  private async rename(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    try {
      await call(memberContract.updateMe, { body: { name: valueOf(form, 'my-name').trim() } });
      this.message = 'Your name is saved.';
      this.dispatchEvent(new CustomEvent('session-refreshed', { detail: await call(sessionContract.get, {}), bubbles: true }));
      await this.load();
    } catch (err) {
      this.message = messageOf(err, 'Your name could not be saved.');
    }
  }

  private async removeMember(member: Member): Promise<void> {
    if (!await this.confirmDialog.ask(`Remove ${member.name} (${member.email})? They are signed out at once and can no longer sign in.`)) return;
    try {
      await call(memberContract.remove, { params: { id: member.id } });
      this.message = `Removed ${member.name}.`;
      await this.load();
    } catch (err) {
      this.message = messageOf(err, 'The member could not be removed.');
    }
  }

  override render() {
    const me = currentSession()?.member?.id;
    return html`
      <h1 tabindex="-1">Members</h1>
      ${settingsNav('members')}
      <p role="status">${this.message}</p>
      ${this.members === undefined ? html`<p role="status">Loading…</p>` : this.members.length === 0
        ? html`<p>No members yet.</p>`
        : html`<div class="table-wrap"><table class="stack">
          <caption class="visually-hidden">Members</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">E-mail address</th><th scope="col">Role</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${this.members.map((member) => html`<tr>
            <td>${member.name}${member.id === me ? html` <span class="muted">(you)</span>` : nothing}</td>
            <td data-label="E-mail address">${member.email}</td><td data-label="Role">${member.role}</td>
            <td>${member.id === me ? nothing : html`<button type="button" class="secondary" aria-label="Remove ${member.name}" @click=${() => this.removeMember(member)}>Remove</button>`}</td>
          </tr>`)}</tbody></table></div>`}
      ${currentSession()?.member ? html`<h2>Your account</h2>
        <form class="card" @submit=${this.rename}>
          <div class="field"><label for="my-name">Your name</label>
            <input id="my-name" name="my-name" required autocomplete="name" .value=${currentSession()?.member?.name ?? ''}></div>
          <button type="submit" class="secondary">Save name</button>
        </form>` : nothing}
      <h2>Invite someone</h2>
      <form class="card" @submit=${this.invite}>
        <div class="field"><label for="invite-email">E-mail address</label>
          <input id="invite-email" name="invite-email" type="email" required autocomplete="off" spellcheck="false"></div>
        <div class="field"><label for="invite-role">Role</label>
          <select id="invite-role" name="invite-role" aria-describedby="invite-role-hint">
            ${RoleSchema.options.map((role) => html`<option value=${role} ?selected=${role === 'AGENT'}>${role}</option>`)}
          </select>
          <ul id="invite-role-hint" class="hint">${RoleSchema.options.map((role) => html`<li>${role}: ${ROLE_HINTS[role]}</li>`)}</ul></div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit">Invite</button>
      </form>
      ${this.invitation ? html`<section class="card" aria-labelledby="invitation-heading">
        <h2 id="invitation-heading">Invitation link for ${this.invitation.email}</h2>
        <p>Send this link to them yourself: it is shown only now, works once, and expires on
          ${new Date(this.invitation.expiresAt).toLocaleString()}.</p>
        <label for="invitation-url">Invitation link</label>
        <div class="row"><input id="invitation-url" readonly .value=${this.invitation.url} size="40">
          <copy-button .text=${this.invitation.url} label="Copy link"></copy-button></div>
      </section>` : nothing}
      <confirm-dialog heading="Remove member" confirmLabel="Remove"></confirm-dialog>
    `;
  }
}
