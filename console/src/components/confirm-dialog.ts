import { html } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import { PageElement } from '../app/page-element.js';

/**
 * @summary A modal yes/no question (native `<dialog>`: focus is trapped and Escape cancels). Focus
 * starts on Cancel, so a stray Enter never confirms a destructive action.
 * Resolve it with {@link ConfirmDialog.ask}.
 */
@customElement('confirm-dialog')
export class ConfirmDialog extends PageElement {
  @property() heading = '';
  @property() confirmLabel = 'Delete';
  @query('dialog') private dialog!: HTMLDialogElement;
  private resolve?: (answer: boolean) => void;
  private text = '';

  /** Shows the question; resolves true when confirmed. */
  async ask(text: string): Promise<boolean> {
    this.text = text;
    this.requestUpdate();
    await this.updateComplete;
    this.dialog.showModal();
    this.dialog.querySelector<HTMLButtonElement>('button.secondary')?.focus();
    return new Promise((resolve) => { this.resolve = resolve; });
  }

  private close(answer: boolean): void {
    this.dialog.close();
    this.resolve?.(answer);
    this.resolve = undefined;
  }

  override render() {
    return html`<dialog aria-labelledby="confirm-heading" @cancel=${() => this.close(false)}>
      <h2 id="confirm-heading">${this.heading}</h2>
      <p>${this.text}</p>
      <div class="row">
        <button type="button" class="danger" @click=${() => this.close(true)}>${this.confirmLabel}</button>
        <button type="button" class="secondary" autofocus @click=${() => this.close(false)}>Cancel</button>
      </div>
    </dialog>`;
  }
}
