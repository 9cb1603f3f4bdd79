import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { resourceContract, type Chatbot, type Resource } from '@parley/shared';
import { PageElement } from '../../app/page-element.js';
import { may } from '../../app/session-state.js';
import { STATUS_LABELS, resourceKind } from './resource-labels.js';

/** The chatbots that use a resource, by name. */
export function usersOf(resource: Resource, chatbots: readonly Chatbot[]): Chatbot[] {
  return chatbots.filter((chatbot) => chatbot.resources.includes(resource.id));
}

/**
 * @summary The resources as a table: name, type, live status, which chatbots use it, and actions.
 * @event resource-action - An action was chosen (`detail` is `{ action: 'edit' | 'edit-website' | 'sync' | 'delete', resource }`).
 */
@customElement('resource-table')
export class ResourceTable extends PageElement {
  @property({ attribute: false }) resources: Resource[] = [];
  @property({ attribute: false }) chatbots: Chatbot[] = [];

  private act(action: string, resource: Resource): void {
    this.dispatchEvent(new CustomEvent('resource-action', { detail: { action, resource }, bubbles: true }));
  }

  override render() {
    if (this.resources.length === 0) return html`<p>No knowledge yet: upload a file (PDF, video, Word, PowerPoint, Markdown, text, HTML or CSV), add text, or add a website.</p>`;
    return html`<div class="table-wrap"><table class="stack">
      <caption class="visually-hidden">Resources</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Used by</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${this.resources.map((resource) => this.renderRow(resource))}</tbody>
    </table></div>`;
  }

  private renderRow(resource: Resource) {
    const users = usersOf(resource, this.chatbots);
    const name = resource.fileName;
    return html`<tr>
      <td><a href="/console/knowledge/${resource.id}">${name}</a>${resource.tags.length ? html`<br><span class="hint">${resource.tags.join(', ')}</span>` : nothing}</td>
      <td data-label="Type">${resourceKind(resource)}</td>
      <td data-label="Status"><span class="status ${resource.aiProcessingStatus}" data-testid="resource-status">${STATUS_LABELS[resource.aiProcessingStatus]}</span>
        <code class="hint">${resource.aiProcessingStatus}</code>
        ${resource.processingProgress !== undefined ? html` <span class="hint">${Math.round(resource.processingProgress * 100)}%</span>` : nothing}
        ${resource.failureReason ? html`<br><span class="hint">${resource.failureReason}</span>` : nothing}</td>
      <td data-label="Used by">${users.length ? users.map((chatbot, i) => html`${i ? ', ' : ''}<a href="/console/chatbots/${chatbot.id}">${chatbot.name}</a>`) : html`<span class="muted">none</span>`}</td>
      <td><div class="row">
        ${!may(resourceContract.remove) ? nothing : html`${resource.type === 'TEXT' ? html`<button type="button" class="secondary" aria-label="Edit ${name}" @click=${() => this.act('edit', resource)}>Edit</button>` : nothing}
        ${resource.type === 'WEB' ? html`<button type="button" class="secondary" aria-label="Settings of ${name}" @click=${() => this.act('edit-website', resource)}>Settings</button>` : nothing}
        ${resource.type === 'WEB' || resource.type === 'HOSTED_VIDEO'
          ? html`<button type="button" class="secondary" aria-label="Sync now: ${name}" @click=${() => this.act('sync', resource)}>Sync now</button>` : nothing}
        <button type="button" class="secondary" aria-label="Delete ${name}" @click=${() => this.act('delete', resource)}>Delete</button>`}
      </div></td></tr>`;
  }
}
