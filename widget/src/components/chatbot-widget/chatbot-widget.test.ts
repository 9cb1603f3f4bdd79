import { expect, fixture, html } from '@open-wc/testing';
import { EmbedError } from '../../api/embed-error.js';
import { FakeEmbedApi, animationsDone, deep, maybeDeep, until } from '../../internal/test/fake-embed-api.js';
import type { WidgetErrorEvent } from '../../events/widget-events.js';
import type { ChatbotWidget } from './chatbot-widget.js';
import './chatbot-widget.js';
import { useSourceChunks } from '../../internal/test/source-chunks.js';

useSourceChunks();

async function mount(api: FakeEmbedApi, mode: 'bubble' | 'page' = 'bubble'): Promise<ChatbotWidget> {
  const el = await fixture<ChatbotWidget>(html`<chatbot-widget .api=${api} chatbot-id=${api.chatbotId} mode=${mode}></chatbot-widget>`);
  await until(() => maybeDeep(el, mode === 'page' ? 'cw-chat-panel' : '.launcher') !== undefined);
  return el;
}

describe('chatbot-widget', () => {
  beforeEach(() => localStorage.clear());

  it('renders a launcher that opens and closes the chat window', async () => {
    const el = await mount(new FakeEmbedApi({ name: 'Shop helper' }));
    const launcher = deep<HTMLButtonElement>(el, '.launcher');
    expect(launcher.getAttribute('aria-label')).to.equal('Open chat with Shop helper');
    expect(launcher.getAttribute('aria-expanded')).to.equal('false');
    launcher.click();
    await el.updateComplete;
    expect(el.open).to.equal(true);
    expect(launcher.getAttribute('aria-expanded')).to.equal('true');
    const panel = deep(el, 'cw-chat-panel');
    expect(panel.hidden).to.equal(false);
    expect(deep(panel, '[role="dialog"]').getAttribute('aria-labelledby')).to.equal('title');
    await animationsDone();
    await expect(el).to.be.accessible();
  });

  it('closes on Escape and gives focus back to the launcher', async () => {
    const el = await mount(new FakeEmbedApi());
    el.toggle(true);
    await el.updateComplete;
    const panel = deep(el, 'cw-chat-panel');
    deep(panel, '.panel').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect(el.open).to.equal(false);
    expect(panel.hidden).to.equal(true);
    expect(el.shadowRoot!.activeElement).to.equal(deep(el, '.launcher'));
  });

  it('closes only the emoji picker on Escape, wherever the focus is inside it', async () => {
    const el = await mount(new FakeEmbedApi({ enabledEmoji: true }));
    el.toggle(true);
    await until(() => maybeDeep(el, 'cw-chat-panel', 'cw-composer', '[aria-label="Insert emoji"]') !== undefined);
    const composer = deep(el, 'cw-chat-panel', 'cw-composer');
    deep<HTMLButtonElement>(composer, '[aria-label="Insert emoji"]').click();
    await until(() => (composer.shadowRoot!.querySelectorAll('.picker button').length ?? 0) > 10);
    const emoji = composer.shadowRoot!.querySelector<HTMLButtonElement>('.picker button')!;
    emoji.focus();
    emoji.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => maybeDeep(composer, '.picker') === undefined);
    expect(el.open).to.equal(true);
    expect(composer.shadowRoot!.activeElement?.tagName).to.equal('TEXTAREA');
    deep(composer, 'textarea').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => !el.open);
  });

  it('moves focus to the message box when opened', async () => {
    const el = await mount(new FakeEmbedApi());
    deep<HTMLButtonElement>(el, '.launcher').click();
    await until(() => maybeDeep(el, 'cw-chat-panel', 'cw-composer')?.shadowRoot?.activeElement?.tagName === 'TEXTAREA');
  });

  it('shows the welcome message, header title and subtitle, badge and avatar from the config', async () => {
    const el = await mount(new FakeEmbedApi({
      welcomeMessage: 'Welcome to **Acme**', welcomeHeaderTitle: 'Acme support', welcomeHeaderSubtitle: 'We reply fast',
      showBadge: true, avatarUrl: 'http://127.0.0.1/avatar.png',
    }));
    el.toggle(true);
    await until(() => maybeDeep(el, 'cw-chat-panel', 'cw-message-list', '.message strong') !== undefined);
    const panel = deep(el, 'cw-chat-panel');
    expect(deep(panel, 'h2').textContent).to.equal('Acme support');
    expect(deep(panel, '.subtitle').textContent).to.equal('We reply fast');
    expect(deep(panel, '.badge').textContent).to.contain('Powered by');
    expect(deep<HTMLImageElement>(panel, 'img.avatar').src).to.equal('http://127.0.0.1/avatar.png');
    expect(deep(panel, 'cw-message-list', '.message strong').textContent).to.equal('Acme');
  });

  it('applies the colors and the gradient as custom properties', async () => {
    const el = await mount(new FakeEmbedApi({
      userMessageColor: '#112233', chatbotMessageColor: '#FFEEDD', gradientColors: ['#FF0000', '#00FF00', '#0000FF', '#FFFF00'],
    }));
    const root = deep(el, '.root');
    expect(root.style.getPropertyValue('--cw-user-bg')).to.equal('#112233');
    expect(root.style.getPropertyValue('--cw-user-fg')).to.equal('#ffffff');
    expect(root.style.getPropertyValue('--cw-bot-bg')).to.equal('#FFEEDD');
    // No one text colour reads on all four stops: dark text, and the blue stop lightened until it does.
    expect(root.style.getPropertyValue('--cw-header-bg')).to.contain('linear-gradient(135deg, #FF0000, #00FF00, #6161ff, #FFFF00)');
    expect(root.style.getPropertyValue('--cw-header-fg')).to.equal('#000000');
    expect(getComputedStyle(deep(el, '.launcher')).backgroundImage).to.contain('linear-gradient');
  });

  it('puts the launcher on the left when the bubble alignment says so', async () => {
    const el = await mount(new FakeEmbedApi({ bubbleAlignment: 'left' }));
    const box = deep(el, '.launcher').getBoundingClientRect();
    expect(box.left).to.be.lessThan(window.innerWidth / 2);
  });

  it('shows the popup messages after a delay, opens on click, and never again once dismissed', async () => {
    const api = new FakeEmbedApi({ bubblePopupMessages: ['Need help?', 'Ask me anything'] });
    const el = await mount(api);
    expect(maybeDeep(el, 'cw-popup-messages')).to.equal(undefined);
    await until(() => maybeDeep(el, 'cw-popup-messages') !== undefined, 3000);
    const popups = deep(el, 'cw-popup-messages');
    expect([...popups.shadowRoot!.querySelectorAll('.message')].map((m) => m.textContent)).to.deep.equal(['Need help?', 'Ask me anything']);
    deep<HTMLButtonElement>(popups, '.dismiss').click();
    await el.updateComplete;
    expect(maybeDeep(el, 'cw-popup-messages')).to.equal(undefined);
    const again = await mount(api);
    await new Promise((r) => setTimeout(r, 1500));
    expect(maybeDeep(again, 'cw-popup-messages')).to.equal(undefined);
  });

  it('renders nothing and reports cw-error when the chatbot is not available here', async () => {
    const api = new FakeEmbedApi();
    api.configError = new EmbedError(403, ['this chatbot is not embeddable on example.org']);
    let reported: WidgetErrorEvent | undefined;
    const el = await fixture<ChatbotWidget>(html`<chatbot-widget .api=${api} chatbot-id=${api.chatbotId}
      @cw-error=${(e: WidgetErrorEvent) => { reported = e; }}></chatbot-widget>`);
    await until(() => reported !== undefined);
    expect(reported!.status).to.equal(403);
    expect(el.shadowRoot!.querySelector('.launcher')).to.equal(null);
    expect(el.getBoundingClientRect().width).to.equal(0);
  });

  it('in page mode shows the chat without a launcher or close button', async () => {
    const el = await mount(new FakeEmbedApi(), 'page');
    expect(maybeDeep(el, '.launcher')).to.equal(undefined);
    const panel = deep(el, 'cw-chat-panel');
    await until(() => maybeDeep(panel, '.header') !== undefined);
    expect(maybeDeep(panel, '[aria-label="Close chat"]')).to.equal(undefined);
    expect(maybeDeep(panel, '[role="region"]')).to.not.equal(undefined);
  });
});
