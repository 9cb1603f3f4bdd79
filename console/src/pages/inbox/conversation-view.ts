import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { ConversationListItem } from '@parley/shared';
import { PageElement } from '../../app/page-element.js';
import { addTextLink } from './add-text-link.js';

/**
 * @summary A conversation's transcript (with the visitor's 👍/👎 on answers) and its analysis (summary, sentiment, intent, key points, next steps).
 * @event correct-answer - "Correct this answer" was chosen on a chatbot message (`detail` is `{ question, answer }`), or
 * "Answer it" on an unanswered question of the analysis (`detail` is `{ question }`).
 */
@customElement('conversation-view')
export class ConversationView extends PageElement {
  @property({ attribute: false }) conversation: ConversationListItem | undefined;
  /** The conversation's chatbot: a text added for an unanswered question is attached to it. */
  @property() chatbotId = '';

  /** The visitor's 👍/👎 (and comment) on the answer at `index`, when they gave one. */
  private renderRating(conversation: ConversationListItem, index: number) {
    const verdict = conversation.feedback?.find((feedback) => feedback.messageIndex === index);
    if (!verdict) return nothing;
    const [emoji, words] = verdict.rating === 'up' ? ['👍', 'Visitor rated this answer helpful'] : ['👎', 'Visitor rated this answer not helpful'];
    return html`<div class="rating ${verdict.rating}"><span aria-hidden="true">${emoji}</span> ${words}${verdict.comment
      ? html`: <q class="rating-comment">${verdict.comment}</q>` : nothing}</div>`;
  }

  private renderAnalysis(conversation: ConversationListItem) {
    const { status, result } = conversation.analysis;
    if (!result) return html`<p class="muted">Analysis: ${status === 'FAILED' ? 'failed' : 'not ready yet'}.</p>`;
    const data = result.extractedData;
    const list = (items: readonly string[]) => items.length ? html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>` : html`<p class="muted">None.</p>`;
    return html`<section class="card" aria-labelledby="analysis-heading">
      <h3 id="analysis-heading">Analysis${status !== 'DONE' ? html` <span class="muted">(${status})</span>` : nothing}</h3>
      <p>${result.summary}</p>
      <dl class="row"><dt>Sentiment</dt><dd>${data.sentimentAnalysis}</dd><dt>Intent</dt><dd>${data.intentClassification}</dd></dl>
      <h4>Key points</h4>${list(data.keyPoints)}
      <h4>Next steps</h4>${list(data.nextSteps)}
      ${result.unansweredQuestions?.length ? html`<h4>Unanswered questions</h4><ul>${result.unansweredQuestions.map((question) =>
        html`<li>${question} <button type="button" class="secondary small" aria-label="Answer it: ${question.slice(0, 80)}"
          @click=${() => this.dispatchEvent(new CustomEvent('correct-answer', { detail: { question }, bubbles: true }))}>Answer it</button>
          <a href=${addTextLink(question, this.chatbotId)}>Add text that answers it</a></li>`)}</ul>` : nothing}
      ${Object.keys(result.customExtractedData).length ? html`<h4>Extracted</h4><pre>${JSON.stringify(result.customExtractedData, null, 2)}</pre>` : nothing}
    </section>`;
  }

  /** "Correct this answer" on a chatbot message that answers a visitor's message. */
  private renderCorrect(conversation: ConversationListItem, index: number) {
    const message = conversation.messages[index]!;
    const question = conversation.messages.slice(0, index).findLast((earlier) => earlier.fromUser)?.text;
    if (message.fromUser || !question) return nothing;
    const detail = { question, answer: message.text };
    return html`<p class="message-actions"><button type="button" class="secondary small" aria-label="Correct this answer to: ${question.slice(0, 80)}"
      @click=${() => this.dispatchEvent(new CustomEvent('correct-answer', { detail, bubbles: true }))}>Correct this answer</button></p>`;
  }

  override render() {
    const conversation = this.conversation;
    if (!conversation) return html`<p class="muted">Choose a conversation to read it.</p>`;
    return html`<section aria-labelledby="transcript-heading">
      <h2 id="transcript-heading">Conversation of ${new Date(conversation.createdAt).toLocaleString()} <span class="muted">(${conversation.source.type})</span></h2>
      <div class="messages card">${conversation.messages.map((message, index) => html`<div class="message ${message.fromUser ? 'user' : 'bot'}">
        <span class="visually-hidden">${message.fromUser ? 'Visitor:' : 'Chatbot:'}</span><span class="message-text">${message.text}</span>${message.fromUser ? nothing : this.renderRating(conversation, index)}
        ${this.renderCorrect(conversation, index)}</div>`)}</div>
      ${this.renderAnalysis(conversation)}
    </section>`;
  }
}
