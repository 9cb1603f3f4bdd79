import { LitElement } from 'lit';

/**
 * Base of the console's elements: they render into the light DOM, so one stylesheet styles them
 * and every label sits in the same tree as its control (labels cannot point into a shadow root).
 */
export class PageElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
