import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { chatbotContract, insightsContract, type Chatbot } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { navigate } from '../../app/router.js';
import '../../components/confirm-dialog.js';
import type { ConfirmDialog } from '../../components/confirm-dialog.js';
import { may } from '../../app/session-state.js';

/** @summary The organisation's chatbots: name, model, access level, resources, conversations this month. */
@customElement('chatbots-page')
export class ChatbotsPage extends PageElement {
  @state() private chatbots: Chatbot[] | undefined;
  @state() private monthly = new Map<string, number>();
  @state() private message = '';
  @query('confirm-dialog') private confirmDialog!: ConfirmDialog;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    this.chatbots = await call(chatbotContract.list, {});
    const now = new Date();
    const start = String(new Date(now.getFullYear(), now.getMonth(), 1).getTime());
    const counts = await Promise.all(this.chatbots.map(async (chatbot) => {
      const stats = await call(insightsContract.chatbotStats, { params: { id: chatbot.id }, query: { start } }).catch(() => undefined);
      return [chatbot.id, stats?.conversations ?? 0] as const;
    }));
    this.monthly = new Map(counts);
  }

  private async deleteChatbot(chatbot: Chatbot): Promise<void> {
    if (!await this.confirmDialog.ask(`Delete "${chatbot.name}" with its conversations, leads and avatar? This cannot be undone.`)) return;
    try {
      await call(chatbotContract.remove, { params: { id: chatbot.id } });
      this.message = `Deleted "${chatbot.name}".`;
      await this.load();
    } catch (err) {
      this.message = err instanceof ApiError ? err.messages.join(' ') : 'The chatbot could not be deleted.';
    }
  }

  override render() {
    return html`
      <h1 tabindex="-1">Chatbots</h1>
      ${may(chatbotContract.create) ? html`<div class="toolbar"><button type="button" @click=${() => navigate('/console/chatbots/new')}>New chatbot</button></div>` : nothing}
      <p role="status">${this.message}</p>
      ${this.chatbots === undefined ? html`<p role="status">Loading…</p>` : this.chatbots.length === 0
        ? html`<p>${may(chatbotContract.create) ? 'No chatbots yet. Create one, give it knowledge, and paste its embed code into your site.' : 'No chatbots yet.'}</p>`
        : this.renderTable(this.chatbots)}
      <confirm-dialog heading="Delete chatbot"></confirm-dialog>
    `;
  }

  private renderTable(chatbots: Chatbot[]) {
    return html`<div class="table-wrap"><table class="stack">
      <caption class="visually-hidden">Chatbots</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Model</th><th scope="col">Access</th><th scope="col">Resources</th>
        <th scope="col">Conversations this month</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${chatbots.map((chatbot) => html`<tr>
        <td><a href="/console/chatbots/${chatbot.id}">${chatbot.name}</a></td>
        <td data-label="Model">${chatbot.model}</td><td data-label="Access">${chatbot.accessLevel}</td><td data-label="Resources">${chatbot.resources.length}</td>
        <td data-label="Conversations this month">${this.monthly.get(chatbot.id) ?? '…'}</td>
        <td><div class="row">
          <a href="/console/chatbots/${chatbot.id}/appearance" aria-label="Appearance of ${chatbot.name}">Appearance</a>
          <a href="/console/playground?chatbot=${chatbot.id}" aria-label="Try ${chatbot.name}">Try</a>
          ${may(chatbotContract.remove) ? html`<button type="button" class="secondary" aria-label="Delete ${chatbot.name}" @click=${() => this.deleteChatbot(chatbot)}>Delete</button>` : nothing}
        </div></td></tr>`)}
      </tbody></table></div>${nothing}`;
  }
}
