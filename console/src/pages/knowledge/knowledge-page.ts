import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { chatbotContract, resourceContract, sessionContract, type Chatbot, type Resource } from '@parley/shared';
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
import { may } from '../../app/session-state.js';

const PENDING = new Set(['NOT_STARTED', 'IN_PROGRESS']);

/** @summary Every resource with its live status; upload, add text, add a website, edit, sync and delete. */
@customElement('knowledge-page')
export class KnowledgePage extends PageElement {
  @state() private resources: Resource[] | undefined;
  @state() private chatbots: Chatbot[] = [];
  @state() private progress: number | undefined;
  @state() private message = '';
  @state() private error = '';
  /** Whether a video host is configured (hosted videos are offered only then). */
  @state() private hostedVideo = false;
  /** The chatbot the page was opened for (`?chatbot=<id>`): what is added here is attached to it. */
  @state() private target: Chatbot | undefined;
  /** The resource the status line says is being read; the line changes when it settles. */
  private reading: { id: string; syncedBefore?: number } | undefined;
  @query('text-dialog') private textDialog!: TextDialog;
  @query('website-dialog') private websiteDialog!: WebsiteDialog;
  @query('confirm-dialog') private confirmDialog!: ConfirmDialog;
  @query('#upload-input') private uploadInput!: HTMLInputElement;
  private timer: number | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void call(sessionContract.get, {}).then((session) => { this.hostedVideo = session.features.hostedVideo; }, () => undefined);
    void this.load().then(() => this.openFromLink());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  /**
   * `?addText=<question>` (from a knowledge gap) opens "Add text" with the question as its name; with
   * `&chatbot=<id>` (and `&gap=<id>`) the text is added to that chatbot and closes the gap.
   */
  private async openFromLink(): Promise<void> {
    const params = queryParams();
    const suggestion = params.get('addText');
    const edit = params.get('edit');
    const resource = edit ? this.resources?.find((r) => r.id === edit) : undefined;
    const website = this.resources?.find((r) => r.id === params.get('editWebsite') && r.type === 'WEB');
    const chatbotId = params.get('chatbot');
    this.target = chatbotId ? this.chatbots.find((chatbot) => chatbot.id === chatbotId) : undefined;
    // A gap's text is added to its chatbot by the service, which closes the gap with it.
    const gapTarget = this.target && { chatbotId: this.target.id, chatbotName: this.target.name, ...(params.get('gap') ? { gapId: params.get('gap')! } : {}) };
    if (suggestion !== null) await this.textDialog.open(undefined, suggestion, gapTarget);
    else if (resource) await this.textDialog.open(resource);
    else if (website) await this.websiteDialog.edit(website);
  }

  /**
   * Attaches new knowledge to the chatbot the page was opened for (its current resources read
   * afresh, so a change made meanwhile is kept); returns the words that say so.
   */
  private async attach(resource: Resource | undefined): Promise<string> {
    const target = this.target;
    if (!target || !resource) return '';
    const current = await call(chatbotContract.get, { params: { id: target.id } });
    if (!current.resources.includes(resource.id)) {
      await call(chatbotContract.update, { params: { id: target.id }, body: { resourceIds: [...current.resources, resource.id] } });
    }
    return ` and added to ${target.name}`;
  }

  /** Loads the list; while anything is processing, polls so statuses change live. */
  private async load(): Promise<void> {
    clearTimeout(this.timer);
    const [resources, chatbots] = await Promise.all([call(resourceContract.list, {}), call(chatbotContract.list, {})]);
    this.resources = resources;
    this.chatbots = chatbots;
    this.settleStatusLine(resources);
    if ((this.reading || resources.some((resource) => PENDING.has(resource.aiProcessingStatus))) && this.isConnected) {
      this.timer = window.setTimeout(() => void this.load(), 1500);
    }
  }

  /** Replaces "it is being read" once that resource is DONE or failed (or gone). */
  private settleStatusLine(resources: readonly Resource[]): void {
    if (!this.reading) return;
    const { id, syncedBefore } = this.reading;
    const resource = resources.find((r) => r.id === id);
    // A sync is over when the resource has left DONE and come back (its lastSync moved), or failed.
    const syncPending = syncedBefore !== undefined && resource?.aiProcessingStatus === 'DONE' && (resource.lastSync ?? 0) === syncedBefore;
    if (resource && (PENDING.has(resource.aiProcessingStatus) || syncPending)) return;
    this.reading = undefined;
    if (!resource) this.message = '';
    else if (resource.aiProcessingStatus === 'DONE') this.message = `${resource.fileName} is ready: the chatbots using it answer from it.`;
    else this.message = `${resource.fileName} could not be read${resource.failureReason ? `: ${resource.failureReason}` : '.'}`;
  }

  /**
   * Opens the file chooser, except while an upload runs. The button is only aria-disabled then:
   * a disabled button would drop the keyboard focus it has to the page's start.
   */
  private chooseFile(): void {
    if (this.progress === undefined) this.uploadInput.click();
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
      this.message = `Uploaded ${resource?.fileName ?? file.name}${await this.attach(resource)}; it is being read.`;
      this.reading = resource && { id: resource.id };
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
      if (action === 'edit-website') return void await this.websiteDialog.edit(resource);
      if (action === 'sync') {
        await call(resourceContract.sync, { params: { id: resource.id } });
        this.message = `Sync of ${resource.fileName} started; it is being read.`;
        this.reading = { id: resource.id, syncedBefore: resource.lastSync ?? 0 };
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

  private async saved(event: CustomEvent<{ resource: Resource; created: boolean; chatbotName?: string }>): Promise<void> {
    const { resource, created, chatbotName } = event.detail;
    this.error = '';
    try {
      const pending = PENDING.has(resource.aiProcessingStatus);
      const added = chatbotName ? ` and added to ${chatbotName}` : created ? await this.attach(resource) : '';
      this.message = `Saved ${resource.fileName}${added}${pending ? '; it is being read.' : '.'}`;
      this.reading = pending ? { id: resource.id } : undefined;
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'It could not be added to the chatbot.';
    }
    await this.load();
  }

  override render() {
    return html`
      <h1 tabindex="-1">Knowledge</h1>
      ${this.target ? html`<p class="notice" data-testid="attach-notice">What you add here is also added to the chatbot
        <a href="/console/chatbots/${this.target.id}">${this.target.name}</a>.</p>` : nothing}
      ${may(resourceContract.createText) ? html`<div class="toolbar">
        <button type="button" @click=${this.chooseFile} aria-disabled=${this.progress !== undefined ? 'true' : 'false'}>Upload file</button>
        <button type="button" @click=${() => this.textDialog.open()}>Add text</button>
        <button type="button" @click=${() => this.websiteDialog.open('website')}>Add website</button>
        ${this.hostedVideo ? html`<button type="button" class="secondary" @click=${() => this.websiteDialog.open('video')}>Add hosted video</button>` : nothing}
        <label for="upload-input" class="visually-hidden">File: PDF, MP4 video, Word, PowerPoint, Markdown, text, HTML or CSV</label>
        <input id="upload-input" class="visually-hidden" type="file" accept=${UPLOAD_ACCEPT} tabindex="-1" @change=${this.uploadFile}>
      </div>` : nothing}
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
