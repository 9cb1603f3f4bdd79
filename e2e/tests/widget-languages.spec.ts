import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, test } from '../fixtures/test.js';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The WCAG contrast ratio of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (rgb: string) => {
    const [r, g, bl] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((c) => {
      const s = Number(c) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const ARABIC_FACTS = [
  'نشحن الطلبات إلى جميع الدول العربية خلال خمسة أيام عمل.',
  'الشحن مجاني للطلبات التي تزيد قيمتها على مئتي ريال.',
  'يمكن إرجاع المنتجات خلال ثلاثين يومًا من تاريخ الشراء.',
].join(' ');

test.describe('a visitor in another language', () => {
  test('chats in Arabic right to left, on a desktop and on a phone', async ({ page, createChatbot, createTextResource, openHostPage }) => {
    const resourceId = await createTextResource('دليل المتجر', ARABIC_FACTS);
    const chatbot = await createChatbot({
      name: 'مساعد المتجر', welcomeMessage: 'مرحبًا! كيف يمكنني مساعدتك اليوم؟', gradientColors: ['#0F766E', '#0E7490', '#1D4ED8', '#6D28D9'],
      websiteIntegration: { locale: 'ar', suggestedQuestions: ['هل تشحنون إلى الأردن؟', 'ما هي سياسة الإرجاع؟'] },
    }, [resourceId]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await page.getByRole('button', { name: 'افتح المحادثة مع مساعد المتجر' }).click();
    const box = page.getByRole('textbox', { name: 'الرسالة' });
    // Empty, the box follows the interface; once typed in, its own text (dir=auto).
    await expect(box).toHaveAttribute('dir', 'rtl');
    await page.getByRole('button', { name: 'هل تشحنون إلى الأردن؟' }).click();
    const log = page.getByRole('log', { name: 'المحادثة' });
    await expect(log).toContainText('نشحن الطلبات');
    await expect(log).toHaveAttribute('aria-busy', 'false');
    // Right to left: the window's text starts at the right, the visitor's bubble sits on the left.
    expect(await log.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await box.evaluate((el) => getComputedStyle(el).textAlign)).toBe('start');
    const [question, answer] = await Promise.all([
      log.locator('.message.user').first().boundingBox(), log.locator('.message.bot').last().boundingBox(),
    ]);
    expect(question!.x).toBeLessThan(answer!.x);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${screenshots}/widget-arabic-desktop.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await box.fill('ما هي سياسة الإرجاع؟');
    await expect(box).toHaveAttribute('dir', 'auto');
    await box.press('Enter');
    await expect(log.locator('.message.bot')).toHaveCount(3);
    await expect(log).toHaveAttribute('aria-busy', 'false');
    await expect(log.getByRole('button', { name: 'مفيد', exact: true })).toHaveCount(2);
    await page.screenshot({ path: `${screenshots}/widget-arabic-phone.png` });
  });

  test('a Hebrew chatbot mirrors the panel: close on the left, send on the left of the box', async ({ page, createChatbot, openHostPage }) => {
    const chatbot = await createChatbot({ name: 'עוזר החנות', websiteIntegration: { locale: 'he' } });
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await page.getByRole('button', { name: 'פתיחת צ׳אט עם עוזר החנות' }).click();
    const dialog = page.getByRole('dialog');
    const close = (await dialog.getByRole('button', { name: 'סגירת הצ׳אט' }).boundingBox())!;
    const title = (await dialog.getByRole('heading', { name: 'עוזר החנות' }).boundingBox())!;
    expect(close.x + close.width).toBeLessThan(title.x);
    const box = dialog.getByRole('textbox', { name: 'הודעה' });
    await box.fill('?מה שעות הפתיחה שלכם');
    const send = (await dialog.getByRole('button', { name: 'שליחת הודעה' }).boundingBox())!;
    expect(send.x + send.width).toBeLessThanOrEqual((await box.boundingBox())!.x);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${screenshots}/widget-hebrew.png` });
  });
});

test.describe('colours that read', () => {
  for (const color of ['#F28F3B', '#3B82F6']) {
    test(`text on ${color} bubbles, header and buttons reaches 4.5:1`, async ({ page, createChatbot, openHostPage, widget }) => {
      const chatbot = await createChatbot({ userMessageColor: color, chatbotMessageColor: color });
      await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
      await widget.open();
      await widget.ask('When does the shop open on Saturdays?');
      for (const bubble of await widget.conversation.locator('.message.user, .message.bot').all()) {
        const [fg, bg] = await bubble.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
        expect(contrast(fg!, bg!)).toBeGreaterThanOrEqual(4.5);
      }
      const header = widget.window.locator('.header');
      const [fg, bg] = await header.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
      expect(contrast(fg!, bg!)).toBeGreaterThanOrEqual(4.5);
      await expectNoAxeViolations(page);
    });
  }
});

test.describe('delivery and diagnostics', () => {
  test('widget.js is sent compressed, its chunks cached for good', async ({ request, baseURL }) => {
    const loader = await request.get(`${baseURL}/widget.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(loader.status()).toBe(200);
    expect(loader.headers()['content-encoding']).toBe('br');
    expect(loader.headers()['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600');
    expect(loader.headers().etag).toBeTruthy();
    const code = await loader.text();
    const chunk = /widget-locale-ar\.[\w-]{8}\.js/.exec(code)?.[0];
    expect(chunk).toBeTruthy();
    const arabic = await request.get(`${baseURL}/${chunk}`, { headers: { 'accept-encoding': 'gzip' } });
    expect([arabic.headers()['content-encoding'], arabic.headers()['cache-control']]).toEqual(['gzip', 'public, max-age=31536000, immutable']);
  });

  test('on a refused domain the widget stays hidden and tells the owner why in the console', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot({ websiteIntegration: { allowedDomains: ['allowed.test'] } });
    const warning = page.waitForEvent('console', (message) => message.type() === 'warning' && message.text().includes('[parley]'));
    await openHostPage('refused.test', { chatbotId: chatbot.id });
    expect((await warning).text()).toContain('(403): this chatbot is not embeddable on refused.test');
    await expect(widget.launcher).toHaveCount(0);
  });

  test('a PROTECTED chatbot and an unknown id also stay hidden with the server\'s reason in the console', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot({ accessLevel: 'PROTECTED' });
    for (const [chatbotId, reason] of [[chatbot.id, '(403): this chatbot is reachable only with an API key'], ['0123456789abcdef01234567', '(404): chatbot 0123456789abcdef01234567 not found']]) {
      const warning = page.waitForEvent('console', (message) => message.type() === 'warning' && message.text().includes('[parley]'));
      await openHostPage('shop.acme.test', { chatbotId: chatbotId! });
      expect((await warning).text()).toContain(reason);
      await expect(widget.launcher).toHaveCount(0);
    }
  });
});
