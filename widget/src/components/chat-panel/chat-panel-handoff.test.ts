import { expect, fixture, html } from '@open-wc/testing';
import { FakeEmbedApi, deep, until } from '../../internal/test/fake-embed-api.js';
import type { CwChatPanel } from './chat-panel.js';
import './chat-panel.js';

async function mount(api: FakeEmbedApi): Promise<CwChatPanel> {
  const el = await fixture<CwChatPanel>(html`<cw-chat-panel .config=${api.config} .api=${api} mode="page" active></cw-chat-panel>`);
  await el.updateComplete;
  return el;
}

async function send(panel: CwChatPanel, text: string): Promise<void> {
  const composer = deep(panel, 'cw-composer') as HTMLElement & { updateComplete: Promise<unknown> };
  await composer.updateComplete;
  const area = deep<HTMLTextAreaElement>(composer, 'textarea');
  area.value = text;
  area.dispatchEvent(new Event('input'));
  area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
}

const list = (panel: CwChatPanel) => deep(panel, 'cw-message-list').shadowRoot!;

describe('cw-chat-panel live handoff', () => {
  beforeEach(() => localStorage.clear());

  it('offers "Talk to a person" in the header', async () => {
    const panel = await mount(new FakeEmbedApi());
    expect(panel.shadowRoot!.querySelector('button[aria-label="Talk to a person"]')).not.to.equal(null);
  });

  it('keeps the visitor\'s message and saves nothing while the team has the conversation', async () => {
    const api = new FakeEmbedApi();
    api.answers.push({ deltas: ['We open at 9.'] }, { deltas: [], meta: { sources: [], state: 'HUMAN' } as never });
    const panel = await mount(api);
    await send(panel, 'When do you open?');
    await until(() => api.saves.length === 1);
    await send(panel, 'Can I speak to Ana?');
    await until(() => list(panel).textContent!.includes('Can I speak to Ana?') && list(panel).querySelector('[aria-busy="false"]') !== null);
    await panel.updateComplete;
    // No empty bot bubble, and no save racing the team's replies.
    expect(list(panel).querySelectorAll('.message.bot').length).to.equal(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.saves.length).to.equal(1);
  });

  it('shows a team member\'s reply with their name and without answer feedback, also after a reload', async () => {
    localStorage.setItem('parley.aaaaaaaaaaaaaaaaaaaaaaaa.page', JSON.stringify({
      messages: [{ text: 'Hello?', fromUser: true }, { text: 'Hi, Ana here.', fromUser: false, by: 'Ana' }],
    }));
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    const reply = [...list(panel).querySelectorAll('.message.bot')].find((message) => message.textContent!.includes('Hi, Ana here.'))!;
    expect(reply.querySelector('b')!.textContent).to.equal('Ana');
    expect(reply.parentElement!.querySelector('cw-answer-feedback')).to.equal(null);
  });
});
