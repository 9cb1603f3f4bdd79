import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { chatbotContract, type ChatMessage, type ChatSource } from '@parley/shared';
import { ApiError } from '../../api/api-client.js';
import { streamChat } from '../../api/chat-stream.js';
import { PageElement } from '../../app/page-element.js';
import { queryParams } from '../../app/router.js';
import type { AnswerDialog } from '../../components/answer-dialog.js';
import '../../components/answer-dialog.js';
import '../../components/chatbot-picker.js';

interface Turn extends ChatMessage { sources?: ChatSource[]; refused?: boolean }

function describeSource(source: ChatSource): string {
  const where = [
    source.page !== undefined ? `page ${source.page}` : '', source.section ?? '',
    source.timestampSec !== undefined ? `${Math.floor(source.timestampSec / 60)}:${String(Math.floor(source.timestampSec % 60)).padStart(2, '0')}` : '',
  ].filter(Boolean).join(', ');
  return where ? `${source.title} (${where})` : source.title;
}

/** @summary Chat with any chatbot as the owner: the answer streams in, with the passages it used. */
@customElement('playground-page')
export class PlaygroundPage extends PageElement {
  @state() private chatbotId = queryParams().get('chatbot') ?? '';
  @state() private turns: Turn[] = [];
  @state() private busy = false;
  @state() private error = '';
  @query('answer-dialog') private answerDialog!: AnswerDialog;
  private abort: AbortController | undefined;

  private reset(): void {
    this.abort?.abort();
    this.turns = [];
    this.error = '';
    this.busy = false;
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('message') as HTMLTextAreaElement;
    const text = input.value.trim();
    if (!text || this.busy || !this.chatbotId) return;
    input.value = '';
    const reply: Turn = { text: '', fromUser: false };
    const conversation = [...this.turns.map(({ text: t, fromUser }) => ({ text: t, fromUser })), { text, fromUser: true }].slice(-100);
    this.turns = [...this.turns, { text, fromUser: true }, reply];
    this.busy = true;
    this.error = '';
    this.abort = new AbortController();
    try {
      const end = await streamChat(chatbotContract.chatStream, { chatbotId: this.chatbotId, conversation }, (delta) => {
        reply.text += delta;
        this.turns = [...this.turns];
      }, this.abort.signal);
      Object.assign(reply, { sources: end.sources, refused: end.refused });
    } catch (err) {
      if ((err as Error).name !== 'AbortError') this.error = err instanceof ApiError ? err.messages.join(' ') : (err as Error).message;
    } finally {
      this.busy = false;
      this.turns = [...this.turns];
      input.focus();
    }
  }

  /** "Correct this answer" on a finished chatbot turn: the owner's answer to the question before it. */
  private renderCorrect(index: number) {
    const turn = this.turns[index]!;
    const question = this.turns.slice(0, index).findLast((earlier) => earlier.fromUser)?.text;
    if (turn.fromUser || !question || (this.busy && index === this.turns.length - 1)) return nothing;
    return html`<p class="message-actions"><button type="button" class="secondary small" aria-label="Correct this answer to: ${question.slice(0, 80)}"
      @click=${() => this.answerDialog.open({ chatbotId: this.chatbotId, question, previousAnswer: turn.text, heading: 'Correct this answer' })}>Correct this answer</button></p>`;
  }

  private renderTurn(turn: Turn, index: number) {
    return html`<div class="message ${turn.fromUser ? 'user' : 'bot'}">
      <span class="visually-hidden">${turn.fromUser ? 'You:' : 'Chatbot:'}</span><span class="message-text">${turn.text}</span>
      ${turn.refused ? html`<p class="hint">Refused: nothing in the knowledge answers this.</p>` : nothing}
      ${this.renderCorrect(index)}
      ${turn.sources?.length ? html`<details open><summary class="hint">Sources (${turn.sources.length})</summary><ol class="sources">
        ${turn.sources.map((source) => html`<li><strong>${describeSource(source)}</strong>: ${source.snippet}</li>`)}</ol></details>` : nothing}
    </div>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Playground</h1>
      <div class="toolbar">
        <chatbot-picker .value=${this.chatbotId} @chatbot-change=${(e: CustomEvent<string>) => { this.chatbotId = e.detail; this.reset(); }}></chatbot-picker>
        <button type="button" class="secondary" @click=${this.reset}>New conversation</button>
      </div>
      <section class="card" aria-label="Conversation">
        <div class="messages" aria-live="polite">${this.turns.length === 0
          ? html`<p class="muted">Ask something your knowledge should answer.</p>` : this.turns.map((turn, index) => this.renderTurn(turn, index))}</div>
        ${this.busy ? html`<p role="status" class="hint">Answering…</p>` : nothing}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <form class="field" @submit=${this.send}>
          <label for="playground-message">Message</label>
          <textarea id="playground-message" name="message" rows="2" @keydown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); (e.target as HTMLTextAreaElement).form?.requestSubmit(); }
          }}></textarea>
          <div class="row"><button type="submit" ?disabled=${this.busy || !this.chatbotId}>Send</button></div>
        </form>
      </section>
      <answer-dialog></answer-dialog>`;
  }
}
