import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { chatbotContract, knowledgeGapsContract, resourceContract, SavedAnswerCreateSchema, type Resource } from '@parley/shared';
import { ApiError, call } from '../api/api-client.js';
import { streamChat } from '../api/chat-stream.js';
import { PageElement } from '../app/page-element.js';
import { issuesByField } from '../pages/chatbots/form-issues.js';

/** What the dialog is opened with. */
export interface AnswerRequest {
  chatbotId: string;
  /** The visitor's question, pre-filled as the first phrasing. */
  question: string;
  /** The chatbot's answer being corrected; without one the dialog asks the chatbot for its current answer. */
  previousAnswer?: string;
  /** The knowledge gap being answered (closed on save). */
  gapId?: string;
  heading?: string;
}

/** How long to wait for the saved-answers resource to be indexed before asking anyway. */
const INDEX_WAIT_MS = 60_000;

async function ask(chatbotId: string, question: string): Promise<string> {
  let text = '';
  await streamChat(chatbotContract.chatStream, { chatbotId, conversation: [{ text: question, fromUser: true }] }, (delta) => { text += delta; });
  return text;
}

async function whenIndexed(resource: Resource): Promise<Resource> {
  const until = Date.now() + INDEX_WAIT_MS;
  let current = resource;
  while (current.aiProcessingStatus !== 'DONE' && !current.aiProcessingStatus.startsWith('FAILED') && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    current = await call(resourceContract.get, { params: { id: resource.id } });
  }
  return current;
}

/**
 * @summary "Answer it" / "Correct this answer": the owner writes the right answer to a visitor's
 * question; it is saved as a saved answer of that chatbot, then the question is asked again and the
 * new answer shown beside the old one.
 * @event answer-saved - The answer was saved (`detail` is `{ gapId?, question }`).
 */
@customElement('answer-dialog')
export class AnswerDialog extends PageElement {
  @state() private request: AnswerRequest | undefined;
  @state() private questions = '';
  @state() private answer = '';
  @state() private previous = '';
  @state() private current = '';
  @state() private progress = '';
  @state() private error = '';
  @state() private submitted = false;
  @state() private saving = false;
  @query('dialog') private dialog!: HTMLDialogElement;

  /** Opens the dialog for one question. */
  async open(request: AnswerRequest): Promise<void> {
    Object.assign(this, {
      request, questions: request.question, answer: '', previous: request.previousAnswer ?? '', current: '', progress: '', error: '', submitted: false, saving: false,
    });
    await this.updateComplete;
    this.dialog.showModal();
    (this.querySelector('#answer-text') as HTMLTextAreaElement | null)?.focus();
    if (request.previousAnswer === undefined) {
      ask(request.chatbotId, request.question).then((text) => { if (this.request === request) this.previous = text; }, () => {});
    }
  }

  private get body() {
    // One question per line (a question may hold commas).
    return { questions: this.questions.split('\n').map((line) => line.trim()).filter(Boolean), answer: this.answer, gapId: this.request?.gapId };
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const request = this.request;
    this.submitted = true;
    if (!request || this.saving || issuesByField(SavedAnswerCreateSchema, this.body).size > 0) return;
    this.saving = true;
    this.error = '';
    try {
      this.progress = 'Saving the answer…';
      const saved = await call(knowledgeGapsContract.saveAnswer, { params: { id: request.chatbotId }, body: this.body });
      this.dispatchEvent(new CustomEvent('answer-saved', { detail: { gapId: request.gapId, question: request.question }, bubbles: true }));
      this.progress = 'Saved. The chatbot is learning it…';
      await whenIndexed(saved.resource);
      this.progress = 'Asking the chatbot again…';
      this.current = await ask(request.chatbotId, request.question);
      this.progress = 'Saved. The chatbot now answers:';
      // The Save button is gone: focus moves to "Done" rather than to the page behind the dialog.
      await this.updateComplete;
      (this.querySelector('#answer-done') as HTMLButtonElement | null)?.focus();
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The answer could not be saved.';
      this.progress = '';
    } finally {
      this.saving = false;
    }
  }

  private renderComparison() {
    if (!this.current) return nothing;
    return html`<div class="grid-2 comparison">
      <section class="card" aria-labelledby="answer-before"><h3 id="answer-before">Before</h3><p class="message-text">${this.previous || '(not known)'}</p></section>
      <section class="card" aria-labelledby="answer-after"><h3 id="answer-after">Now</h3><p class="message-text">${this.current}</p></section>
    </div>`;
  }

  private renderFields(issues: Map<string, string>) {
    return html`<div class="field"><label for="answer-questions">Questions it answers</label>
        <textarea id="answer-questions" rows="3" aria-describedby="answer-questions-hint" ?disabled=${this.saving}
          aria-invalid=${issues.has('questions') ? 'true' : 'false'} .value=${this.questions}
          @input=${(e: Event) => { this.questions = (e.target as HTMLTextAreaElement).value; }}></textarea>
        <p class="hint" id="answer-questions-hint">One per line. Add the other ways visitors ask it.</p>
        ${issues.has('questions') ? html`<p class="error">Questions ${issues.get('questions')}</p>` : nothing}</div>
      <div class="field"><label for="answer-text">The right answer</label>
        <textarea id="answer-text" rows="5" ?disabled=${this.saving} aria-invalid=${issues.has('answer') ? 'true' : 'false'} .value=${this.answer}
          @input=${(e: Event) => { this.answer = (e.target as HTMLTextAreaElement).value; }}></textarea>
        <p class="hint">Visitors get it exactly as written, whenever they ask one of these questions.</p>
        ${issues.has('answer') ? html`<p class="error">Answer ${issues.get('answer')}</p>` : nothing}</div>`;
  }

  override render() {
    const issues = this.submitted ? issuesByField(SavedAnswerCreateSchema, this.body) : new Map<string, string>();
    const done = Boolean(this.current);
    return html`<dialog aria-labelledby="answer-dialog-heading" @close=${() => { this.request = undefined; }}>
      <form novalidate @submit=${this.save}>
        <h2 id="answer-dialog-heading">${this.request?.heading ?? 'Answer it'}</h2>
        ${done ? html`<p class="hint">Saved for: ${this.body.questions.map((question, index) => html`${index ? '; ' : ''}“${question}”`)}</p>` : html`
          ${this.previous ? html`<p class="hint dialog-lead">The chatbot answered: “${this.previous}”</p>` : nothing}
          ${this.renderFields(issues)}`}
        ${this.progress ? html`<p role="status">${this.progress}</p>` : nothing}
        ${this.renderComparison()}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="row">
          ${done ? nothing : html`<button type="submit" ?disabled=${this.saving}>Save answer</button>`}
          <button type="button" id="answer-done" class=${done ? '' : 'secondary'} @click=${() => this.dialog.close()}>${done ? 'Done' : 'Cancel'}</button>
        </div>
      </form></dialog>`;
  }
}
