/**
 * `@customElement` that tolerates a second copy of the widget on the same page (two script
 * tags, or the chat link page plus a tag): the first definition wins instead of throwing into
 * the host page.
 */
export const element = (tag: string) => (cls: CustomElementConstructor): void => {
  if (!customElements.get(tag)) customElements.define(tag, cls);
};
