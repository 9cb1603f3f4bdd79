import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { KnowledgeGapGroup } from '@parley/shared';
import { PageElement } from '../../app/page-element.js';
import { addTextLink } from './add-text-link.js';

/**
 * @summary The questions the chatbot could not answer, grouped, as a work queue: answer each one
 * (a saved answer of the chatbot), dismiss it, or read a conversation that asked it.
 * @event answer-gap - "Answer it" was chosen (`detail` is the gap).
 * @event dismiss-gap - "Dismiss" was chosen (`detail` is the gap).
 * @event open-conversation - "View conversation" was chosen (`detail` is the conversation id).
 */
@customElement('knowledge-gaps')
export class KnowledgeGaps extends PageElement {
  @property({ attribute: false }) gaps: KnowledgeGapGroup[] = [];
  /** The chatbot whose gaps these are: a text added for a gap is attached to it. */
  @property() chatbotId = '';

  private emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
  }

  private renderGap(gap: KnowledgeGapGroup) {
    const others = gap.questions.filter((question) => question !== gap.question);
    return html`<li>
      <p class="gap-question"><strong>${gap.question}</strong></p>
      <p class="hint">Asked ${gap.count === 1 ? 'once' : `${gap.count} times`}, last ${new Date(gap.lastAskedAt).toLocaleString()}</p>
      ${others.length ? html`<p class="hint">Also asked as: ${others.map((question, index) => html`${index ? '; ' : ''}“${question}”`)}</p>` : nothing}
      <p class="row gap-actions">
        <button type="button" aria-label="Answer it: ${gap.question}" @click=${() => this.emit('answer-gap', gap)}>Answer it</button>
        <button type="button" class="secondary" aria-label="Dismiss: ${gap.question}" @click=${() => this.emit('dismiss-gap', gap)}>Dismiss</button>
        <button type="button" class="secondary" @click=${() => this.emit('open-conversation', gap.conversationIds[0])}>View conversation</button>
        <a href=${addTextLink(gap.question, this.chatbotId, gap.id)}>Add text that answers it</a>
      </p></li>`;
  }

  private renderList(heading: string, hint: string, gaps: KnowledgeGapGroup[]) {
    if (gaps.length === 0) return nothing;
    const id = heading.toLowerCase().replace(/\W+/g, '-');
    return html`<section class="card gap-section" aria-labelledby=${id}><h3 id=${id}>${heading} (${gaps.length})</h3><p class="hint">${hint}</p>
      <ul class="list-plain">${gaps.map((gap) => this.renderGap(gap))}</ul></section>`;
  }

  override render() {
    if (this.gaps.length === 0) return html`<p>No unanswered questions in this range.</p>`;
    return html`${this.renderList('About your knowledge', 'Your resources mention these subjects but do not answer the question.', this.gaps.filter((gap) => !gap.offTopic))}
      ${this.renderList('Outside your knowledge', 'Nothing in your resources relates to these: answer the ones visitors should get an answer to, dismiss the rest.', this.gaps.filter((gap) => gap.offTopic))}`;
  }
}
