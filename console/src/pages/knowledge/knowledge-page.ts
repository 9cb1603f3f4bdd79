import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { chatbotContract, resourceContract, type Chatbot, type Resource } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { upload } from '../../api/upload.js';
import { PageElement } from '../../app/page-element.js';
import { queryParams } from '../../app/router.js';
import '../../components/confirm-dialog.js';
import type { ConfirmDialog } from '../../components/confirm-dialog.js';
import { UPLOAD_ACCEPT } from './resource-labels.js';
import './resource-table.js';
import './text-dialog.js';
import type { TextDialog } from './text-dialog.js';
import './website-dialog.js';
import type { WebsiteDialog } from './website-dialog.js';

const PENDING = new Set(['NOT_STARTED', 'IN_PROGRESS']);

/** @summary Every resource with its live status; upload, add text, add a website, edit, sync and delete. */
@customElement('knowledge-page')
export class KnowledgePage extends PageElement {
  @state() private resources: Resource[] | undefined;
  @state() private chatbots: Chatbot[] = [];
  @state() private progress: number | undefined;
  @state() private message = '';
  @state() private error = '';
  @query('text-dialog') private textDialog!: TextDialog;
  @query('website-dialog') private websiteDialog!: WebsiteDialog;
  @query('confirm-dialog') private confirmDialog!: ConfirmDialog;
  @query('#upload-input') private uploadInput!: HTMLInputElement;
  private timer: number | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load().then(() => this.openFromLink());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  /** `?addText=<question>` (from a knowledge gap) opens "Add text" with the question as its name. */
  private async openFromLink(): Promise<void> {
    const suggestion = queryParams().get('addText');
    const edit = queryParams().get('edit');
    const resource = edit ? this.resources?.find((r) => r.id === edit) : undefined;
    if (suggestion !== null) await this.textDialog.open(undefined, suggestion);
    else if (resource) await this.textDialog.open(resource);
  }

  /** Loads the list; while anything is processing, polls so statuses change live. */
  private async load(): Promise<void> {
    clearTimeout(this.timer);
    const [resources, chatbots] = await Promise.all([call(resourceContract.list, {}), call(chatbotContract.list, {})]);
    this.resources = resources;
    this.chatbots = chatbots;
    if (resources.some((resource) => PENDING.has(resource.aiProcessingStatus)) && this.isConnected) {
      this.timer = window.setTimeout(() => void this.load(), 1500);
    }
  }

  private async uploadFile(): Promise<void> {
    const file = this.uploadInput.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    this.error = '';
    this.message = `Uploading ${file.name}…`;
    this.progress = 0;
    try {
      const resource = await upload(resourceContract.createFile, {}, form, (fraction) => { this.progress = fraction; });
      this.message = `Uploaded ${resource?.fileName ?? file.name}; it is being read.`;
    } catch (err) {
      this.message = '';
      this.error = err instanceof ApiError ? err.messages.join(' ') || `The upload was refused (${err.status}).` : (err as Error).message;
    } finally {
      this.progress = undefined;
      this.uploadInput.value = '';
      await this.load();
    }
  }

  private async onAction(event: CustomEvent<{ action: string; resource: Resource }>): Promise<void> {
    const { action, resource } = event.detail;
    this.error = '';
    try {
      if (action === 'edit') return void await this.textDialog.open(resource);
      if (action === 'sync') {
        await call(resourceContract.sync, { params: { id: resource.id } });
        this.message = `Sync of ${resource.fileName} started.`;
      }
      if (action === 'delete') {
        if (!await this.confirmDialog.ask(`Delete "${resource.fileName}" and its passages? This cannot be undone.`)) return;
        await call(resourceContract.remove, { params: { id: resource.id } });
        this.message = `Deleted ${resource.fileName}.`;
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.chatbots.length > 0) {
        const names = err.chatbots.map((id) => this.chatbots.find((c) => c.id === id)?.name ?? id);
        this.error = `"${resource.fileName}" is used by ${names.join(', ')}. Remove it from ${names.length === 1 ? 'that chatbot' : 'those chatbots'} first.`;
      } else this.error = err instanceof ApiError ? err.messages.join(' ') : 'That did not work.';
    }
    await this.load();
  }

  private saved(event: CustomEvent<Resource>): void {
    this.message = `Saved ${event.detail.fileName}; it is being indexed.`;
    void this.load();
  }

  override render() {
    return html`
      <h1 tabindex="-1">Knowledge</h1>
      <div class="toolbar">
        <button type="button" @click=${() => this.uploadInput.click()} ?disabled=${this.progress !== undefined}>Upload file</button>
        <button type="button" @click=${() => this.textDialog.open()}>Add text</button>
        <button type="button" @click=${() => this.websiteDialog.open('website')}>Add website</button>
        <button type="button" class="secondary" @click=${() => this.websiteDialog.open('video')}>Add hosted video</button>
        <label for="upload-input" class="visually-hidden">File: PDF, MP4 video, Word, PowerPoint, Markdown, text, HTML or CSV</label>
        <input id="upload-input" class="visually-hidden" type="file" accept=${UPLOAD_ACCEPT} tabindex="-1" @change=${this.uploadFile}>
      </div>
      ${this.progress !== undefined ? html`<progress max="1" .value=${this.progress} aria-label="Upload progress"></progress>` : nothing}
      <p role="status">${this.message}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.resources === undefined ? html`<p role="status">Loading…</p>`
        : html`<resource-table .resources=${this.resources} .chatbots=${this.chatbots} @resource-action=${this.onAction}></resource-table>`}
      <text-dialog @resource-saved=${this.saved}></text-dialog>
      <website-dialog @resource-saved=${this.saved}></website-dialog>
      <confirm-dialog heading="Delete resource"></confirm-dialog>
    `;
  }
}
