import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { KnowledgeGap } from '@parley/shared';
import { PageElement } from '../../app/page-element.js';

/**
 * @summary Questions the chatbot could not answer, across conversations, each with shortcuts to
 * add a text that answers it or to edit the knowledge.
 * @event open-conversation - "View conversation" was chosen (`detail` is the conversation id).
 */
@customElement('knowledge-gaps')
export class KnowledgeGaps extends PageElement {
  @property({ attribute: false }) gaps: KnowledgeGap[] = [];

  override render() {
    if (this.gaps.length === 0) return html`<p>No unanswered questions in this range.</p>`;
    return html`<ul class="list-plain">${this.gaps.map((gap) => html`<li>
      <p><strong>${gap.question}</strong> <span class="hint">${new Date(gap.createdAt).toLocaleString()}</span></p>
      <p class="row">
        <a href="/console/knowledge?addText=${encodeURIComponent(gap.question)}">Add text that answers it</a>
        <a href="/console/knowledge">Edit an existing text</a>
        <button type="button" class="secondary" @click=${() => this.dispatchEvent(new CustomEvent('open-conversation', { detail: gap.conversationId, bubbles: true }))}>View conversation</button>
      </p></li>`)}</ul>`;
  }
}
