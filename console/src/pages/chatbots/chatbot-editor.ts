import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import {
  AccessLevelSchema, ModelSchema, PersonalityTypeSchema, ToneTypeSchema, chatbotContract, modelsContract, resourceContract,
  type AccessLevel, type Chatbot, type ModelRouting, type PersonalityType, type Resource, type ToneType,
} from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { navigate } from '../../app/router.js';
import { resourceKind } from '../knowledge/resource-labels.js';
import { ACCESS_LEVELS, PERSONALITIES, TONES } from './chatbot-labels.js';
import { createBodyOf, draftOf, newDraft, schemaFor, updateBodyOf, type ChatbotDraft } from './chatbot-draft.js';
import './embed-snippet.js';
import { issuesByField } from './form-issues.js';
import { may } from '../../app/session-state.js';

type TextField = 'name' | 'welcomeMessage' | 'password' | 'customSystemPrompt' | 'restrict' | 'tags';
/** Form field → the API field its problems are reported under. */
const API_FIELD: Partial<Record<keyof ChatbotDraft, string>> = { restrict: 'restrictAnswersToResourcesContentResponse' };

/** @summary Create or edit a chatbot: every field of the contract, checked inline with the shared schemas. */
@customElement('chatbot-editor')
export class ChatbotEditor extends PageElement {
  /** Absent: a new chatbot. */
  @property() chatbotId = '';
  @state() private draft: ChatbotDraft = newDraft();
  @state() private chatbot: Chatbot | undefined;
  @state() private resources: Resource[] = [];
  /** What answers each model name on this service (absent until loaded, or from an older server). */
  @state() private routing = new Map<string, ModelRouting>();
  @state() private touched = new Set<string>();
  @state() private submitted = false;
  @state() private status = '';
  @state() private serverError = '';

  override async connectedCallback(): Promise<void> {
    super.connectedCallback();
    const [resources, chatbot] = await Promise.all([
      call(resourceContract.list, {}),
      this.chatbotId ? call(chatbotContract.get, { params: { id: this.chatbotId } }) : Promise.resolve(undefined),
    ]);
    this.resources = resources;
    if (chatbot) { this.chatbot = chatbot; this.draft = draftOf(chatbot); }
    // Best effort: without it the names are listed bare.
    const models = await call(modelsContract.list, {}).catch(() => undefined);
    if (models) this.routing = new Map(models.models.map((model) => [model.name, model]));
  }

  /** A model name with what answers it here: "alpha-4o-mini — llama3.1:8b (OpenAI-compatible)" or "— built-in engine". */
  private modelLabel(name: string): string {
    const routing = this.routing.get(name);
    if (!routing) return name;
    if (routing.engine === 'local') return `${name} — built-in engine`;
    const provider = { openai: 'OpenAI-compatible', anthropic: 'Anthropic', google: 'Google' }[routing.provider ?? 'openai'];
    return `${name} — ${routing.providerModel} (${provider})`;
  }

  private get creating(): boolean { return !this.chatbotId; }

  private get issues(): Map<string, string> {
    return issuesByField(schemaFor(this.creating), this.creating ? createBodyOf(this.draft) : updateBodyOf(this.draft));
  }

  private set<K extends keyof ChatbotDraft>(field: K, value: ChatbotDraft[K]): void {
    this.draft = { ...this.draft, [field]: value };
    this.touched = new Set(this.touched).add(field);
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.submitted = true;
    this.serverError = '';
    if (this.issues.size > 0) {
      this.status = `Fix the ${this.issues.size === 1 ? 'field' : 'fields'} marked below.`;
      await this.updateComplete;
      const marked = this.querySelector<HTMLElement>('[aria-invalid="true"]');
      // A problem of a field that is not shown must still be said, never "marked below" with nothing marked.
      if (marked) marked.focus();
      else this.status = `Not saved: ${[...this.issues].map(([field, message]) => `${field} ${message}`).join('; ')}.`;
      return;
    }
    try {
      const saved = this.creating
        ? await call(chatbotContract.create, { body: createBodyOf(this.draft) })
        : await call(chatbotContract.update, { params: { id: this.chatbotId }, body: updateBodyOf(this.draft) });
      this.status = `Saved "${saved.name}".`;
      if (this.creating) navigate(`/console/chatbots/${saved.id}`);
      else { this.chatbot = saved; this.draft = { ...draftOf(saved), password: '' }; }
    } catch (err) {
      this.serverError = err instanceof ApiError ? err.messages.join(' ') : 'The chatbot could not be saved.';
      this.status = '';
    }
  }

  private error(field: keyof ChatbotDraft): string | undefined {
    if (!this.submitted && !this.touched.has(field)) return undefined;
    return this.issues.get(API_FIELD[field] ?? field);
  }

  private control(field: TextField, label: string, input: (attrs: { id: string; invalid: boolean; describedBy: string }) => TemplateResult, hint = '') {
    const id = `chatbot-${field}`;
    const error = this.error(field);
    const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
    return html`<div class="field">
      <label for=${id}>${label}</label>
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : nothing}
      ${input({ id, invalid: Boolean(error), describedBy })}
      ${error ? html`<p class="error" id="${id}-error">${label} ${error}</p>` : nothing}
    </div>`;
  }

  private text(field: TextField, label: string, options: { type?: string; hint?: string; multiline?: boolean } = {}) {
    const onInput = (event: Event) => this.set(field, (event.target as HTMLInputElement).value);
    return this.control(field, label, ({ id, invalid, describedBy }) => options.multiline
      ? html`<textarea id=${id} .value=${this.draft[field]} aria-invalid=${invalid ? 'true' : 'false'}
          aria-describedby=${describedBy || nothing} @input=${onInput}></textarea>`
      : html`<input id=${id} type=${options.type ?? 'text'} .value=${this.draft[field]} aria-invalid=${invalid ? 'true' : 'false'}
          aria-describedby=${describedBy || nothing} autocomplete="off" @input=${onInput}>`, options.hint);
  }

  private select<K extends 'model' | 'accessLevel' | 'personalityType' | 'toneType'>(
    field: K, label: string, options: readonly string[], labelOf: (option: string) => string = (option) => option, hint = '',
  ) {
    return html`<div class="field"><label for="chatbot-${field}">${label}</label>
      <select id="chatbot-${field}" aria-describedby=${hint ? `chatbot-${field}-hint` : nothing}
        @change=${(e: Event) => this.set(field, (e.target as HTMLSelectElement).value as ChatbotDraft[K])}>
        ${options.map((option) => html`<option value=${option} ?selected=${this.draft[field] === option}>${labelOf(option)}</option>`)}
      </select>${hint ? html`<p class="hint" id="chatbot-${field}-hint">${hint}</p>` : nothing}</div>`;
  }

  private renderResources() {
    const toggle = (id: string, on: boolean) => this.set('resourceIds', on ? [...this.draft.resourceIds, id] : this.draft.resourceIds.filter((r) => r !== id));
    return html`<fieldset class="card"><legend>Knowledge it answers from</legend>
      ${this.resources.length === 0 && this.creating ? html`<p class="hint">No resources yet: <a href="/console/knowledge">add some</a> first.</p>` : nothing}
      ${this.creating ? nothing : html`<p><a href="/console/knowledge?chatbot=${this.chatbotId}">Add knowledge to this chatbot</a>
        <span class="hint">(files, text or a website; what you add there is attached here)</span></p>`}
      ${this.resources.map((resource) => html`<div class="row"><input type="checkbox" id="res-${resource.id}"
        .checked=${this.draft.resourceIds.includes(resource.id)} @change=${(e: Event) => toggle(resource.id, (e.target as HTMLInputElement).checked)}>
        <label for="res-${resource.id}">${resource.fileName} <span class="muted">(${resourceKind(resource)})</span></label></div>`)}
    </fieldset>`;
  }

  override render() {
    const custom = this.draft.personalityType === 'CUSTOM' && this.draft.toneType === 'CUSTOM';
    return html`
      <h1 tabindex="-1">${this.creating ? 'New chatbot' : `Chatbot: ${this.chatbot?.name ?? '…'}`}</h1>
      ${this.chatbot ? html`<p class="row"><a href="/console/chatbots/${this.chatbot.id}/appearance">Appearance and preview</a>
        <a href="/console/playground?chatbot=${this.chatbot.id}">Try it in the playground</a></p>` : nothing}
      <div class="grid-2"><form class="card" novalidate @submit=${this.save}>
        ${this.text('name', 'Name')}
        ${this.text('welcomeMessage', 'Welcome message', { multiline: true })}
        ${this.select('model', 'Model', ModelSchema.options, (name) => this.modelLabel(name))}
        ${this.select('accessLevel', 'Access level', AccessLevelSchema.options, (level) => ACCESS_LEVELS[level as AccessLevel].label,
          `${ACCESS_LEVELS[this.draft.accessLevel].explains} In the API: accessLevel ${this.draft.accessLevel}.`)}
        ${this.draft.accessLevel === 'PRIVATE' ? this.text('password', 'Password', { type: 'password', hint: this.creating || !this.chatbot || this.chatbot.accessLevel !== 'PRIVATE'
          ? 'Visitors enter it to chat. At least 8 characters with upper and lower case, a digit and a special character.' : 'Leave empty to keep the current password.' }) : nothing}
        ${this.creating
          ? html`${this.select('personalityType', 'Personality', PersonalityTypeSchema.options, (p) => PERSONALITIES[p as PersonalityType],
              `How it answers; set once, when the chatbot is created. In the API: personalityType ${this.draft.personalityType}.`)}
            ${this.select('toneType', 'Tone', ToneTypeSchema.options, (t) => TONES[t as ToneType],
              `Set once, when the chatbot is created. In the API: toneType ${this.draft.toneType}.`)}`
          : html`<div class="field"><p><strong>Personality and tone</strong></p>
              <p class="hint" data-testid="personality-note">Chosen when the chatbot was created and kept by the service, which never returns
                them (<code>personalityType</code> and <code>toneType</code> are create-only in the API), so they can be neither shown nor
                changed here. To change how it answers, create a new chatbot, or use a custom system prompt when both were CUSTOM.</p></div>`}
        ${custom || this.draft.customSystemPrompt ? this.text('customSystemPrompt', 'Custom system prompt', { multiline: true, hint: 'Needs personality and tone both CUSTOM.' }) : nothing}
        ${this.text('restrict', 'Answer when the knowledge has nothing', { multiline: true, hint: 'Leave empty to let the chatbot answer freely.' })}
        ${this.text('tags', 'Tags', { hint: 'Separated by commas.' })}
        ${this.renderResources()}
        ${this.serverError ? html`<p class="error" role="alert">${this.serverError}</p>` : nothing}
        <div class="row">${may(chatbotContract.update) ? html`<button type="submit">Save</button>` : html`<p class="hint">Your role can read this chatbot but not change it.</p>`}<span role="status">${this.status}</span></div>
      </form>
      ${this.chatbot ? html`<embed-snippet .chatbotId=${this.chatbot.id}></embed-snippet>` : nothing}</div>
    `;
  }
}
