import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { knowledgeGapsContract, resourceContract, TextResourceCreateSchema, TextResourceUpdateSchema, type Resource } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { issuesByField, lines } from '../chatbots/form-issues.js';

/** The chatbot a new text is written for (from a knowledge gap), and the gap it answers. */
export interface TextTarget {
  chatbotId: string;
  chatbotName: string;
  gapId?: string;
}

/**
 * @summary Add a text resource, or edit one (its content is re-indexed under the same id). A text
 * written for a chatbot (a knowledge gap's "Add text that answers it") is attached to it and closes the gap.
 * @event resource-saved - Saved (`detail` is `{ resource, created, chatbotName? }`: the chatbot the service added it to).
 */
@customElement('text-dialog')
export class TextDialog extends PageElement {
  @state() private editing: Resource | undefined;
  @state() private target: TextTarget | undefined;
  @state() private name = '';
  @state() private content = '';
  @state() private tags = '';
  @state() private error = '';
  @state() private submitted = false;
  @state() private loading = false;
  @query('dialog') private dialog!: HTMLDialogElement;

  /** Opens the dialog empty (optionally with a suggested name, for a chatbot), or with a resource's text to edit. */
  async open(resource?: Resource, suggestion = '', target?: TextTarget): Promise<void> {
    Object.assign(this, {
      editing: resource, target: resource ? undefined : target, name: resource?.fileName ?? suggestion, content: '', tags: resource?.tags.join(', ') ?? '',
      error: '', submitted: false,
    });
    await this.updateComplete;
    this.dialog.showModal();
    if (resource) {
      this.loading = true;
      try {
        this.content = (await call(resourceContract.getText, { params: { id: resource.id } })).content;
      } catch (err) {
        this.error = err instanceof ApiError ? err.messages.join(' ') : 'The text could not be loaded.';
      }
      this.loading = false;
    }
  }

  private get body() {
    return { name: this.name, content: this.content, tags: lines(this.tags) };
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.submitted = true;
    const schema = this.editing ? TextResourceUpdateSchema : TextResourceCreateSchema;
    if (issuesByField(schema, this.body).size > 0) return;
    try {
      const { target } = this;
      const saved = this.editing
        ? await call(resourceContract.updateText, { params: { id: this.editing.id }, body: this.body })
        : target
          ? await call(knowledgeGapsContract.addText, { params: { id: target.chatbotId }, body: { ...this.body, ...(target.gapId ? { gapId: target.gapId } : {}) } })
          : await call(resourceContract.createText, { body: this.body });
      this.dialog.close();
      this.dispatchEvent(new CustomEvent('resource-saved', { detail: { resource: saved, created: !this.editing, chatbotName: target?.chatbotName }, bubbles: true }));
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The text could not be saved.';
    }
  }

  override render() {
    const issues = this.submitted ? issuesByField(this.editing ? TextResourceUpdateSchema : TextResourceCreateSchema, this.body) : new Map<string, string>();
    const field = (id: 'name' | 'content', label: string) => html`<div class="field"><label for="text-${id}">${label}</label>
      ${id === 'content'
        ? html`<textarea id="text-content" rows="10" .value=${this.content} ?disabled=${this.loading} aria-invalid=${issues.has(id) ? 'true' : 'false'}
            @input=${(e: Event) => { this.content = (e.target as HTMLTextAreaElement).value; }}></textarea>`
        : html`<input id="text-name" .value=${this.name} aria-invalid=${issues.has(id) ? 'true' : 'false'}
            @input=${(e: Event) => { this.name = (e.target as HTMLInputElement).value; }}>`}
      ${issues.has(id) ? html`<p class="error">${label} ${issues.get(id)}</p>` : nothing}</div>`;
    return html`<dialog aria-labelledby="text-dialog-heading">
      <form novalidate @submit=${this.save}>
        <h2 id="text-dialog-heading">${this.editing ? `Edit "${this.editing.fileName}"` : 'Add text'}</h2>
        ${this.editing ? html`<p class="hint">Chatbots keep answering from the current text until the new text is indexed.</p>` : nothing}
        ${this.target ? html`<p class="hint">The text is added to the knowledge of ${this.target.chatbotName}, which answers from it once it is indexed.</p>` : nothing}
        ${field('name', 'Name')}${field('content', 'Content')}
        <div class="field"><label for="text-tags">Tags</label>
          <input id="text-tags" .value=${this.tags} @input=${(e: Event) => { this.tags = (e.target as HTMLInputElement).value; }}></div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="row"><button type="submit" ?disabled=${this.loading}>Save</button>
          <button type="button" class="secondary" @click=${() => this.dialog.close()}>Cancel</button></div>
      </form></dialog>`;
  }
}
