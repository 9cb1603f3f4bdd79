import { expect, fixture, html } from '@open-wc/testing';
import { contrastRatio } from '@parley/shared';
import { FakeEmbedApi, animationsDone, deep, maybeDeep, until } from '../../internal/test/fake-embed-api.js';
import { useSourceChunks } from '../../internal/test/source-chunks.js';
import { useLanguage } from '../../i18n/i18n.js';
import type { ChatbotWidget } from './chatbot-widget.js';
import './chatbot-widget.js';

useSourceChunks();

async function openPanel(api: FakeEmbedApi): Promise<ChatbotWidget> {
  const el = await fixture<ChatbotWidget>(html`<chatbot-widget .api=${api} chatbot-id=${api.chatbotId} mode="page"></chatbot-widget>`);
  await until(() => maybeDeep(el, 'cw-chat-panel', 'cw-composer') !== undefined);
  await animationsDone();
  return el;
}

function rgbToHex(rgb: string): string {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number) as [number, number, number];
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

describe('chatbot-widget languages and colours', () => {
  beforeEach(() => localStorage.clear());
  after(() => useLanguage('en'));

  it('speaks Arabic right to left: mirrored layout, translated texts, each message in its own direction', async () => {
    const api = new FakeEmbedApi({ locale: 'ar', welcomeMessage: 'مرحبًا! كيف يمكنني مساعدتك؟' });
    api.answers.push({ deltas: ['نعم، نشحن إلى ', 'جميع الدول العربية.'] });
    const el = await openPanel(api);
    const root = deep(el, '.root');
    expect(root.getAttribute('dir')).to.equal('rtl');
    expect(root.getAttribute('lang')).to.equal('ar');
    const composer = deep(el, 'cw-chat-panel', 'cw-composer');
    const area = deep<HTMLTextAreaElement>(composer, 'textarea');
    expect(area.placeholder).to.equal('اكتب رسالتك…');
    // Empty, the box follows the interface (the placeholder reads right to left); typed in, its text.
    expect(area.getAttribute('dir')).to.equal('rtl');
    area.value = 'هل تشحنون إلى الأردن؟';
    area.dispatchEvent(new Event('input'));
    await (composer as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(area.getAttribute('dir')).to.equal('auto');
    area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    await until(() => api.saves.length === 1);
    const list = deep(el, 'cw-chat-panel', 'cw-message-list');
    const user = list.shadowRoot!.querySelector('.message.user')!.getBoundingClientRect();
    const bot = list.shadowRoot!.querySelector('.message.bot')!.getBoundingClientRect();
    // Right to left: the visitor's messages sit on the left, the chatbot's on the right.
    expect(user.left).to.be.lessThan(bot.left);
    for (const content of list.shadowRoot!.querySelectorAll('.content')) expect(content.getAttribute('dir')).to.equal('auto');
    await animationsDone();
    await expect(el).to.be.accessible();
  });

  it('mirrors the panel for Hebrew: the close button and the send button sit on the left', async () => {
    const el = await fixture<ChatbotWidget>(html`<chatbot-widget .api=${new FakeEmbedApi({ locale: 'he' })} chatbot-id="aaaaaaaaaaaaaaaaaaaaaaaa"></chatbot-widget>`);
    await until(() => maybeDeep(el, '.launcher') !== undefined);
    expect(deep(el, '.launcher').getAttribute('aria-label')).to.equal('פתיחת צ׳אט עם Test bot');
    el.toggle(true);
    await until(() => maybeDeep(el, 'cw-chat-panel', 'cw-composer', 'textarea') !== undefined);
    const panel = deep(el, 'cw-chat-panel');
    const close = deep(panel, 'button[aria-label="סגירת הצ׳אט"]').getBoundingClientRect();
    const title = deep(panel, 'h2').getBoundingClientRect();
    expect(close.right).to.be.lessThan(title.left);
    const composer = deep(panel, 'cw-composer');
    expect(deep(composer, '.action').getBoundingClientRect().right).to.be.lessThan(deep(composer, 'textarea').getBoundingClientRect().left);
  });

  it('uses the browser language when the chatbot names none, and English for a language it lacks', async () => {
    const el = await openPanel(new FakeEmbedApi({ locale: 'tlh' }));
    expect(deep(el, '.root').getAttribute('dir')).to.equal('ltr');
    expect(deep<HTMLTextAreaElement>(el, 'cw-chat-panel', 'cw-composer', 'textarea').placeholder).to.equal('Type your message…');
  });

  for (const color of ['#F28F3B', '#3B82F6']) {
    it(`paints text that reads at 4.5:1 or better on ${color} bubbles and buttons`, async () => {
      const api = new FakeEmbedApi({ userMessageColor: color, chatbotMessageColor: color });
      api.answers.push({ deltas: ['Sure.'] });
      const el = await openPanel(api);
      const composer = deep(el, 'cw-chat-panel', 'cw-composer');
      const area = deep<HTMLTextAreaElement>(composer, 'textarea');
      area.value = 'Hello';
      area.dispatchEvent(new Event('input'));
      area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
      await until(() => api.saves.length === 1);
      const list = deep(el, 'cw-chat-panel', 'cw-message-list');
      for (const bubble of list.shadowRoot!.querySelectorAll<HTMLElement>('.message.user, .message.bot')) {
        const style = getComputedStyle(bubble);
        expect(contrastRatio(rgbToHex(style.color), rgbToHex(style.backgroundColor))).to.be.at.least(4.5);
      }
      const send = getComputedStyle(deep(composer, '.action'));
      expect(contrastRatio(rgbToHex(send.color), rgbToHex(send.backgroundColor))).to.be.at.least(4.5);
      const header = getComputedStyle(deep(el, 'cw-chat-panel', '.header'));
      expect(contrastRatio(rgbToHex(header.color), rgbToHex(header.backgroundColor === 'rgba(0, 0, 0, 0)' ? '#ffffff' : header.backgroundColor)))
        .to.be.at.least(4.5);
    });
  }
});
