import { html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { chatbotContract, type Chatbot } from '@parley/shared';
import { call } from '../api/api-client.js';
import { PageElement } from '../app/page-element.js';

/**
 * @summary A "Chatbot" select over the organisation's chatbots; picks the first when none (or an unknown one) is set,
 * and announces the initial choice either way.
 * @event chatbot-change - The chosen chatbot changed, or was first chosen (`detail` is its id).
 */
@customElement('chatbot-picker')
export class ChatbotPicker extends PageElement {
  @property() value = '';
  @state() private chatbots: Chatbot[] | undefined;

  override async connectedCallback(): Promise<void> {
    super.connectedCallback();
    this.chatbots = await call(chatbotContract.list, {});
    // Announced even when the page's address already named it: the page loads its data on this event.
    const initial = this.chatbots.some((chatbot) => chatbot.id === this.value) ? this.value : this.chatbots[0]?.id;
    if (initial) this.choose(initial);
  }

  private choose(id: string): void {
    this.value = id;
    this.dispatchEvent(new CustomEvent('chatbot-change', { detail: id, bubbles: true }));
  }

  override render() {
    if (!this.chatbots) return html`<span role="status">Loading chatbots…</span>`;
    if (this.chatbots.length === 0) return html`<p>No chatbots yet. <a href="/console/chatbots/new">Create one</a> first.</p>`;
    return html`<div class="field">
      <label for="chatbot-picker">Chatbot</label>
      <select id="chatbot-picker" .value=${this.value} @change=${(event: Event) => this.choose((event.target as HTMLSelectElement).value)}>
        ${this.chatbots.map((chatbot) => html`<option value=${chatbot.id} ?selected=${chatbot.id === this.value}>${chatbot.name}</option>`)}
      </select>
    </div>`;
  }
}
