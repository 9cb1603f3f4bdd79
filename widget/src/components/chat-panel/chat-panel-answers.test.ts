import { expect, fixture, html } from '@open-wc/testing';
import { FakeEmbedApi, animationsDone, deep, maybeDeep, until } from '../../internal/test/fake-embed-api.js';
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
const RESOURCE = 'cccccccccccccccccccccccc';
const SOURCES = [
  { resourceId: RESOURCE, title: 'Tent manual.pdf', section: 'Tent manual › Setup', page: 3, snippet: 'Stake the corners first.' },
  { resourceId: RESOURCE, title: 'Pitching video', url: 'https://videos.example/v/42', timestampSec: 134, snippet: 'Now clip the poles.' },
  { resourceId: RESOURCE, title: 'Returns', url: 'https://shop.example/returns', snippet: 'Within 30 days.' },
];

describe('cw-chat-panel answers: sources, feedback, starter questions, lead offers', () => {
  beforeEach(() => localStorage.clear());

  it('shows source chips with the innermost section, the PDF page and the video moment, streamed and after a reload', async () => {
    const api = new FakeEmbedApi();
    api.answers.push({ deltas: ['Stake the corners, ', 'then clip the poles.'], meta: { sources: SOURCES } });
    const panel = await mount(api);
    await send(panel, 'How do I pitch the tent?');
    await until(() => list(panel).querySelectorAll('.source').length === 3);
    const chips = [...list(panel).querySelectorAll('.chip')].map((chip) => chip.textContent);
    expect(chips).to.deep.equal(['Tent manual.pdf · Setup · p. 3', 'Pitching video · 2:14', 'Returns']);
    const links = [...list(panel).querySelectorAll<HTMLAnchorElement>('a.chip')].map((a) => a.href);
    expect(links).to.deep.equal(['https://videos.example/v/42#t=134', 'https://shop.example/returns']);
    const more = list(panel).querySelector<HTMLButtonElement>('.source .more')!;
    expect(more.getAttribute('aria-expanded')).to.equal('false');
    more.click();
    await until(() => list(panel).querySelector('.source blockquote')?.textContent === 'Stake the corners first.');
    await animationsDone();
    await expect(panel).to.be.accessible();
    await until(() => api.saves.length === 1);
    // The server's copy stays text only; the chips come back from this browser's copy.
    expect(api.saves[0]!.messages[1]).to.deep.equal({ text: 'Stake the corners, then clip the poles.', fromUser: false });
    panel.remove();
    const reloaded = await mount(api);
    expect([...list(reloaded).querySelectorAll('.chip')].map((chip) => chip.textContent)).to.deep.equal(chips);
  });

  it('stores 👍, and 👎 with an optional comment, for the answer of the saved conversation', async () => {
    const api = new FakeEmbedApi();
    api.answers.push({ deltas: ['We ship to 30 countries.'] }, { deltas: ['Returns take 30 days.'] });
    const panel = await mount(api);
    await send(panel, 'Do you ship abroad?');
    await until(() => api.saves.length === 1);
    await send(panel, 'And returns?');
    await until(() => api.saves.length === 2);
    const feedback = [...list(panel).querySelectorAll('cw-answer-feedback')];
    expect(feedback).to.have.length(2);
    deep<HTMLButtonElement>(feedback[0]!, 'button[aria-label="Helpful"]').click();
    await until(() => api.feedback.length === 1);
    expect(api.feedback[0]).to.deep.equal({ conversationId: 'bbbbbbbbbbbbbbbbbbbbbbb1', visitorToken: 'visitor-token', messageIndex: 1, rating: 'up' });
    deep<HTMLButtonElement>(feedback[1]!, 'button[aria-label="Not helpful"]').click();
    await until(() => maybeDeep(feedback[1]!, 'textarea') !== undefined);
    deep<HTMLTextAreaElement>(feedback[1]!, 'textarea').value = 'Which countries?';
    deep<HTMLButtonElement>(feedback[1]!, 'button[type="submit"]').click();
    await until(() => api.feedback.length === 3);
    expect(api.feedback.slice(1).map((f) => [f.messageIndex, f.rating, f.comment])).to.deep.equal([[3, 'down', undefined], [3, 'down', 'Which countries?']]);
    await until(() => deep(feedback[1]!, '.thanks').textContent === 'Thanks for your feedback!');
    expect(deep(feedback[1]!, 'button[aria-label="Not helpful"]').getAttribute('aria-pressed')).to.equal('true');
  });

  it('offers the owner\'s starter questions on an empty conversation; a click asks one', async () => {
    const api = new FakeEmbedApi({ suggestedQuestions: ['What are your opening hours?', 'Do you ship abroad?'] });
    const panel = await mount(api);
    const starters = panel.shadowRoot!.querySelectorAll<HTMLButtonElement>('.starters button');
    expect([...starters].map((b) => b.textContent)).to.deep.equal(['What are your opening hours?', 'Do you ship abroad?']);
    await animationsDone();
    await expect(panel).to.be.accessible();
    starters[1]!.click();
    await until(() => api.saves.length === 1);
    expect(api.asked[0]).to.deep.equal([{ text: 'Do you ship abroad?', fromUser: true }]);
    expect(panel.shadowRoot!.querySelector('.starters')).to.equal(null);
  });

  it('offers the lead form inline after a refusal; the lead carries the conversation and the page', async () => {
    const api = new FakeEmbedApi();
    api.answers.push({ deltas: ['Sorry, I do not know that.'], meta: { sources: [], refused: true } });
    const panel = await mount(api);
    await send(panel, 'Can you repair my stove?');
    await until(() => maybeDeep(panel, 'cw-lead-offer', 'cw-lead-form') !== undefined);
    await until(() => api.saves.length === 1);
    await animationsDone();
    await expect(panel).to.be.accessible();
    const form = deep(panel, 'cw-lead-offer', 'cw-lead-form');
    deep<HTMLInputElement>(form, 'input[name="email"]').value = 'ada@example.com';
    deep<HTMLButtonElement>(form, 'button[type="submit"]').click();
    await until(() => api.leads.length === 1);
    expect(api.leads[0]).to.deep.equal({ email: 'ada@example.com', conversationId: 'bbbbbbbbbbbbbbbbbbbbbbb1', pageUrl: location.href });
    await until(() => maybeDeep(form, '.done') !== undefined);
    await send(panel, 'Thanks');
    await until(() => api.saves.length === 2);
    expect(panel.shadowRoot!.querySelector('cw-lead-offer')).to.equal(null);
  });

  it('offers the lead form after the owner\'s number of answers, and not again once declined', async () => {
    const api = new FakeEmbedApi({ leadOfferAfterTurns: 2 });
    const panel = await mount(api);
    await send(panel, 'One');
    await until(() => api.saves.length === 1);
    expect(panel.shadowRoot!.querySelector('cw-lead-offer')).to.equal(null);
    await send(panel, 'Two');
    await until(() => maybeDeep(panel, 'cw-lead-offer', '.close') !== undefined);
    deep<HTMLButtonElement>(panel, 'cw-lead-offer', '.close').click();
    await send(panel, 'Three');
    await until(() => api.saves.length === 3);
    expect(panel.shadowRoot!.querySelector('cw-lead-offer')).to.equal(null);
  });

  it('asks before "new conversation" wipes the chat', async () => {
    const api = new FakeEmbedApi();
    const panel = await mount(api);
    await send(panel, 'Keep me');
    await until(() => api.saves.length === 1);
    const newChat = deep<HTMLButtonElement>(panel, 'button[aria-label="Start a new conversation"]');
    expect(newChat.dataset.tip).to.equal('Start a new conversation');
    newChat.click();
    await until(() => maybeDeep(panel, '[role="alertdialog"]') !== undefined);
    await animationsDone();
    await expect(panel).to.be.accessible();
    deep<HTMLButtonElement>(panel, '.confirm .cancel').click();
    await panel.updateComplete;
    expect(list(panel).textContent).to.contain('Keep me');
    newChat.click();
    await until(() => maybeDeep(panel, '.confirm .danger') !== undefined);
    deep<HTMLButtonElement>(panel, '.confirm .danger').click();
    await until(() => !list(panel).textContent!.includes('Keep me'));
  });

  it('brings the visitor back to the latest message when they send after scrolling up', async () => {
    const api = new FakeEmbedApi();
    api.answers.push(...Array.from({ length: 6 }, (_, i) => ({ deltas: [`Answer ${i} `.repeat(30)] })));
    const panel = await fixture<CwChatPanel>(html`<div style="height: 420px; display: flex"><cw-chat-panel .config=${api.config} .api=${api} mode="page" active></cw-chat-panel></div>`)
      .then((wrapper) => wrapper.querySelector('cw-chat-panel')!);
    for (let i = 0; i < 5; i++) {
      await send(panel, `Question ${i}`);
      await until(() => api.saves.length === i + 1);
    }
    const log = list(panel).querySelector<HTMLElement>('.log')!;
    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    await until(() => list(panel).querySelector('.jump') !== null);
    expect(list(panel).querySelector('.jump')!.textContent).to.contain('Jump to the latest message');
    await send(panel, 'Question 5');
    await until(() => api.saves.length === 6);
    await until(() => log.scrollHeight - log.scrollTop - log.clientHeight < 40);
    expect(list(panel).querySelector('.jump')).to.equal(null);
  });
});
