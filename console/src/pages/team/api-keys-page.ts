import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { apiKeyContract, type ApiKeyCreated, type ApiKeySummary } from '@parley/shared';
import { call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import '../../components/confirm-dialog.js';
import type { ConfirmDialog } from '../../components/confirm-dialog.js';
import '../../components/copy-button.js';
import { messageOf, settingsNav, valueOf } from './member-form.js';

/** @summary Settings → API keys: named keys for API clients, shown once when made, revoked here. */
@customElement('api-keys-page')
export class ApiKeysPage extends PageElement {
  @state() private keys: ApiKeySummary[] | undefined;
  @state() private created: ApiKeyCreated | undefined;
  @state() private error = '';
  @state() private message = '';
  @query('confirm-dialog') private confirmDialog!: ConfirmDialog;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    this.keys = (await call(apiKeyContract.list, {})).reverse();
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.error = '';
    try {
      this.created = await call(apiKeyContract.create, { body: { name: valueOf(form, 'key-name').trim() } });
      form.reset();
      await this.load();
    } catch (err) {
      this.error = messageOf(err, 'The key could not be created.');
    }
  }

  private async revoke(key: ApiKeySummary): Promise<void> {
    if (!await this.confirmDialog.ask(`Revoke "${key.name}" (${key.prefix}…)? Clients using it are refused, and consoles signed in with it are signed out.`)) return;
    try {
      await call(apiKeyContract.revoke, { params: { id: key.id } });
      this.message = `Revoked "${key.name}".`;
      if (this.created?.id === key.id) this.created = undefined;
      await this.load();
    } catch (err) {
      this.message = messageOf(err, 'The key could not be revoked.');
    }
  }

  override render() {
    return html`
      <h1 tabindex="-1">API keys</h1>
      ${settingsNav('api-keys')}
      <p>Keys let scripts and other services call the API with full access. People should sign in with their own account instead.</p>
      <form class="card" @submit=${this.create}>
        <div class="field"><label for="key-name">Name</label>
          <input id="key-name" name="key-name" required autocomplete="off" aria-describedby="key-name-hint">
          <p id="key-name-hint" class="hint">What uses the key, such as "Zapier" or "Website build".</p></div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit">Create key</button>
      </form>
      ${this.created ? html`<section class="card" aria-labelledby="created-heading">
        <h2 id="created-heading">New key "${this.created.name}"</h2>
        <p>Copy it now: it is shown only once.</p>
        <label for="created-key">API key</label>
        <div class="row"><input id="created-key" readonly .value=${this.created.apiKey} size="40">
          <copy-button .text=${this.created.apiKey} label="Copy key"></copy-button></div>
      </section>` : nothing}
      <p role="status">${this.message}</p>
      ${this.keys === undefined ? html`<p role="status">Loading…</p>` : html`<div class="table-wrap"><table class="stack">
        <caption class="visually-hidden">API keys</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>${this.keys.map((key) => html`<tr>
          <td>${key.name}</td><td data-label="Starts with"><code>${key.prefix}…</code></td>
          <td data-label="Created">${new Date(key.createdAt).toLocaleDateString()}</td>
          <td data-label="Status">${key.revokedAt ? `Revoked ${new Date(key.revokedAt).toLocaleDateString()}` : 'Active'}</td>
          <td>${key.revokedAt ? nothing : html`<button type="button" class="secondary" aria-label="Revoke ${key.name}" @click=${() => this.revoke(key)}>Revoke</button>`}</td>
        </tr>`)}</tbody></table></div>`}
      <confirm-dialog heading="Revoke API key" confirmLabel="Revoke"></confirm-dialog>
    `;
  }
}
