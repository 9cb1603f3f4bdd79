import { html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { PageElement } from '../app/page-element.js';

/** @summary A button that copies `text` to the clipboard and says so (politely, for screen readers). */
@customElement('copy-button')
export class CopyButton extends PageElement {
  @property() text = '';
  @property() label = 'Copy';
  @state() private done = '';

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.text);
      this.done = 'Copied';
    } catch {
      this.done = 'Copy failed: select the text and copy it by hand';
    }
    setTimeout(() => { this.done = ''; }, 3000);
  }

  override render() {
    return html`<button type="button" class="secondary" @click=${this.copy}>${this.label}</button>
      <span class="muted" role="status">${this.done}</span>`;
  }
}
