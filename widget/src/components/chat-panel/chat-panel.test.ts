import { expect, fixture, html } from '@open-wc/testing';
import { EmbedError } from '../../api/embed-error.js';
import { FakeEmbedApi, animationsDone, deep, maybeDeep, until } from '../../internal/test/fake-embed-api.js';
import type { CwChatPanel } from './chat-panel.js';
import './chat-panel.js';

async function mount(api: FakeEmbedApi): Promise<CwChatPanel> {
  const el = await fixture<CwChatPanel>(html`<cw-chat-panel .config=${api.config} .api=${api} mode="page" active></cw-chat-panel>`);
  await el.updateComplete;
  return el;
}

async function send(panel: CwChatPanel, text: string): Promise<void> {
  const composer = deep(panel, 'cw-composer');
  await (composer as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
  const area = deep<HTMLTextAreaElement>(composer, 'textarea');
  area.value = text;
  area.dispatchEvent(new Event('input'));
  area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
}

const texts = (panel: CwChatPanel) => [...deep(panel, 'cw-message-list').shadowRoot!.querySelectorAll('.message:not(.typing) .content')]
  .map((m) => m.textContent!.replace(/\s+/g, ' ').trim());

describe('cw-chat-panel', () => {
  beforeEach(() => localStorage.clear());

  it('sends the question and streams the answer in, then saves the conversation', async () => {
    const api = new FakeEmbedApi();
    api.answers.push({ deltas: ['We open ', 'at **9am**.'] });
    const panel = await mount(api);
    await send(panel, 'When do you open?');
    await until(() => api.saves.length === 1);
    expect(api.asked).to.deep.equal([[{ text: 'When do you open?', fromUser: true }]]);
    expect(texts(panel)).to.deep.equal(['Hi! How can I help you today?', 'When do you open?', 'We open at 9am.']);
    await animationsDone();
    await expect(panel).to.be.accessible();
    expect(deep(panel, 'cw-message-list', '.row.bot:last-of-type strong').textContent).to.equal('9am');
    expect(api.saves[0]).to.deep.equal({ messages: [{ text: 'When do you open?', fromUser: true }, { text: 'We open at **9am**.', fromUser: false }] });
  });

  it('extends the same conversation with its visitor token on the next save', async () => {
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    await send(panel, 'One');
    await until(() => api.saves.length === 1);
    await send(panel, 'Two');
    await until(() => api.saves.length === 2);
    expect(api.saves[1]!.conversationId).to.equal('bbbbbbbbbbbbbbbbbbbbbbb1');
    expect(api.saves[1]!.visitorToken).to.equal('visitor-token');
    expect(api.asked[1]!.map((m) => m.text)).to.deep.equal(['One', 'Hello there.', 'Two']);
  });

  it('names the saved conversation when it asks again, so the chatbot\'s limits for all visitors spare it', async () => {
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    await send(panel, 'One');
    await until(() => api.saves.length === 1);
    await send(panel, 'Two');
    await until(() => api.saves.length === 2);
    expect(api.askedIn).to.deep.equal([undefined, { conversationId: 'bbbbbbbbbbbbbbbbbbbbbbb1', visitorToken: 'visitor-token' }]);
  });

  it('starts a new conversation when the stored one is gone (404)', async () => {
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    await send(panel, 'One');
    await until(() => api.saves.length === 1);
    api.saveErrors.push(new EmbedError(404, ['conversation not found']));
    await send(panel, 'Two');
    await until(() => api.saves.length === 3);
    expect(api.saves[1]!.conversationId).to.equal('bbbbbbbbbbbbbbbbbbbbbbb1');
    expect(api.saves[2]!.conversationId).to.equal(undefined);
    expect(api.saves[2]!.messages.map((m) => m.text)).to.deep.equal(['One', 'Hello there.', 'Two', 'Hello there.']);
  });

  it('keeps the conversation across a reload', async () => {
    const api = new FakeEmbedApi();
    const first = await mount(api);
    await send(first, 'Remember me');
    await until(() => api.saves.length === 1);
    first.remove();
    const second = await mount(api);
    expect(texts(second)).to.deep.equal(['Hi! How can I help you today?', 'Remember me', 'Hello there.']);
  });

  it('shows what another tab added to the conversation', async () => {
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    const key = `parley.${api.chatbotId}.page`;
    const other = { messages: [{ text: 'From the other tab', fromUser: true }, { text: 'Answered there.', fromUser: false }] };
    localStorage.setItem(key, JSON.stringify(other));
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: JSON.stringify(other) }));
    await until(() => texts(panel).at(-1) === 'Answered there.');
  });

  it('shows a typing indicator until the first words arrive', async () => {
    const api = new FakeEmbedApi();
    let release!: () => void;
    api.answers.push({ deltas: ['Here.'], before: new Promise((r) => { release = r; }) });
    const panel = await mount(api);
    await send(panel, 'Hi');
    await until(() => maybeDeep(panel, 'cw-message-list', '.typing[role="status"]') !== undefined);
    expect(deep(panel, 'cw-message-list', '.typing').textContent).to.contain('The chatbot is typing');
    expect(texts(panel).at(-1)).to.equal('Hi');
    release();
    await until(() => texts(panel).at(-1) === 'Here.');
    expect(maybeDeep(panel, 'cw-message-list', '.typing')).to.equal(undefined);
  });

  it('shows a stop button while streaming, and keeps the text when stopped', async () => {
    const api = new FakeEmbedApi();
    let release!: () => void;
    api.answers.push({ deltas: ['Partial ', 'rest'], hold: new Promise((r) => { release = r; }) });
    const panel = await mount(api);
    await send(panel, 'Hi');
    await until(() => texts(panel).includes('Partial'));
    expect(deep(panel, 'cw-message-list', '.log').getAttribute('aria-busy')).to.equal('true');
    const stop = deep<HTMLButtonElement>(panel, 'cw-composer', '[aria-label="Stop answering"]');
    stop.click();
    await until(() => maybeDeep(panel, 'cw-composer', '[aria-label="Send message"]') !== undefined);
    release();
    expect(texts(panel).at(-1)).to.equal('Partial');
    // A stopped answer is visibly incomplete, after a reload too.
    expect(deep(panel, 'cw-message-list', '.message.interrupted').textContent).to.contain('interrupted');
  });

  it('shows an error with a retry button that asks again', async () => {
    const api = new FakeEmbedApi();
    api.answers.push({ deltas: [], error: new EmbedError(429) }, { deltas: ['Second time lucky.'] });
    const panel = await mount(api);
    await send(panel, 'Hello?');
    await until(() => maybeDeep(panel, 'cw-message-list', '.error') !== undefined);
    expect(deep(panel, 'cw-message-list', '.error').textContent).to.contain('Too many messages');
    deep<HTMLButtonElement>(panel, 'cw-message-list', '.retry').click();
    await until(() => texts(panel).at(-1) === 'Second time lucky.');
    expect(api.asked.length).to.equal(2);
    expect(maybeDeep(panel, 'cw-message-list', '.error')).to.equal(undefined);
  });

  it('asks for the password of a PRIVATE chatbot and then chats with the session', async () => {
    const api = new FakeEmbedApi({ accessLevel: 'PRIVATE' });
    const panel = await mount(api);
    const gate = deep(panel, 'cw-password-gate');
    await until(() => gate.shadowRoot?.activeElement?.tagName === 'INPUT');
    expect(maybeDeep(panel, 'cw-composer')).to.equal(undefined);
    const input = deep<HTMLInputElement>(gate, 'input');
    input.value = 'wrong';
    deep<HTMLButtonElement>(gate, 'button[type="submit"]').click();
    await until(() => maybeDeep(gate, '.error') !== undefined);
    expect(deep(gate, '.error').textContent).to.contain('not right');
    expect(input.getAttribute('aria-describedby')).to.equal('error');
    await animationsDone();
    await expect(gate).to.be.accessible();
    input.value = api.password;
    deep<HTMLButtonElement>(gate, 'button[type="submit"]').click();
    await until(() => maybeDeep(panel, 'cw-composer') !== undefined);
    expect(api.token).to.equal('session-token');
    await send(panel, 'Secret question');
    await until(() => api.saves.length === 1);
    expect(texts(panel).at(-1)).to.equal('Hello there.');
  });

  it('captures a lead from the contact form, requiring an email or a phone', async () => {
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    let submitted = false;
    panel.addEventListener('cw-lead-submitted', () => { submitted = true; });
    deep<HTMLButtonElement>(panel, '[aria-label="Leave your contact details"]').click();
    await until(() => maybeDeep(panel, 'cw-lead-form', 'form') !== undefined);
    const form = deep(panel, 'cw-lead-form');
    deep<HTMLInputElement>(form, 'input[name="name"]').value = 'Ada';
    deep<HTMLButtonElement>(form, 'button[type="submit"]').click();
    await until(() => maybeDeep(form, '.error') !== undefined);
    expect(api.leads).to.deep.equal([]);
    deep<HTMLInputElement>(form, 'input[name="email"]').value = 'ada@example.com';
    deep<HTMLButtonElement>(form, 'button[type="submit"]').click();
    await until(() => submitted);
    expect(api.leads).to.deep.equal([{ name: 'Ada', email: 'ada@example.com', pageUrl: location.href }]);
    expect(deep(form, '[role="status"]').textContent).to.contain('Thank you');
    await animationsDone();
    await expect(form).to.be.accessible();
  });
});
