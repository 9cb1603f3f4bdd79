import { expect, fixture, html } from '@open-wc/testing';
import { deep, maybeDeep, until } from '../../internal/test/fake-embed-api.js';
import type { ComposerSendEvent, CwComposer } from './composer.js';
import './composer.js';
import { useSourceChunks } from '../../internal/test/source-chunks.js';

useSourceChunks();

describe('cw-composer', () => {
  it('sends on Enter, adds a line on Shift+Enter, and ignores blank messages', async () => {
    const sent: string[] = [];
    const el = await fixture<CwComposer>(html`<cw-composer @cw-send=${(e: ComposerSendEvent) => sent.push(e.text)}></cw-composer>`);
    const area = deep<HTMLTextAreaElement>(el, 'textarea');
    const key = (shiftKey: boolean) => area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey, bubbles: true, cancelable: true }));
    area.value = '   ';
    key(false);
    area.value = 'Hello';
    expect(key(true)).to.equal(true);
    key(false);
    expect(sent).to.deep.equal(['Hello']);
    expect(area.value).to.equal('');
  });

  it('has a labelled message box and send button', async () => {
    const el = await fixture<CwComposer>(html`<cw-composer></cw-composer>`);
    expect(deep(el, 'label[for="input"]').textContent).to.equal('Message');
    expect(maybeDeep(el, '[aria-label="Send message"]')).to.not.equal(undefined);
    expect(maybeDeep(el, '[aria-label="Insert emoji"]')).to.equal(undefined);
  });

  it('loads the emoji picker on first use and inserts the chosen emoji', async () => {
    const el = await fixture<CwComposer>(html`<cw-composer emoji></cw-composer>`);
    deep<HTMLButtonElement>(el, '[aria-label="Insert emoji"]').click();
    await until(() => (el.shadowRoot!.querySelectorAll('.picker button').length ?? 0) > 50);
    const first = el.shadowRoot!.querySelector<HTMLButtonElement>('.picker button')!;
    const emoji = first.textContent!;
    first.click();
    await el.updateComplete;
    expect(deep<HTMLTextAreaElement>(el, 'textarea').value).to.equal(emoji);
    expect(maybeDeep(el, '.picker')).to.equal(undefined);
  });
});
