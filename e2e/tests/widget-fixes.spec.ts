import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, test } from '../fixtures/test.js';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));

test.describe('the widget at every size and with the keyboard', () => {
  test('Escape in the emoji picker closes only the picker', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot({ enabledEmoji: true });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    await widget.window.getByRole('button', { name: 'Insert emoji' }).click();
    const picker = widget.window.getByRole('dialog', { name: 'Emoji' });
    await picker.getByRole('button').first().focus();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    await expect(widget.window).toBeVisible();
    await expect(widget.messageBox).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(widget.window).toBeHidden();
  });

  test('sending after scrolling up brings the question and the answer into view; a reopened chat shows its end', async ({
    page, createChatbot, openHostPage, widget,
  }) => {
    const chatbot = await createChatbot();
    await page.setViewportSize({ width: 1280, height: 720 });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    for (const question of ['When does the shop open on Saturdays?', 'Can I return a product?', 'How long does delivery take?', 'Are you open on Sundays?']) {
      await widget.ask(question);
    }
    const log = widget.conversation;
    await log.evaluate((el) => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); });
    await expect(widget.window.getByRole('button', { name: 'Jump to the latest message' })).toBeVisible();
    await expectNoAxeViolations(page);
    await widget.ask('When does the shop close on weekdays?');
    await expect(log.locator('.message.user').last()).toBeInViewport();
    await expect(log.locator('.message.bot').last()).toBeInViewport();
    await widget.launcher.click();
    await widget.open();
    await expect(log.locator('.message.bot').last()).toBeInViewport();
  });

  test('at 200% zoom the chat uses the whole window and its message box stays reachable', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot();
    // A 1280×800 window at 200% zoom lays out as 640×400 CSS pixels.
    await page.setViewportSize({ width: 640, height: 400 });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    await expect.poll(async () => (await widget.window.boundingBox())!.height).toBe(400);
    await expect(widget.messageBox).toBeInViewport();
    expect(await widget.messageBox.evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
    await widget.ask('Can I return a product?');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${screenshots}/widget-zoom-200.png` });
  });

  test('on a phone the page behind does not scroll and Tab stays inside the chat', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot({ enabledEmoji: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await page.evaluate(() => { document.body.style.minHeight = '4000px'; });
    await widget.open();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    await page.mouse.wheel(0, 1500);
    await page.keyboard.press('PageDown');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectNoAxeViolations(page);
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('CHATBOT-WIDGET');
    }
    await page.keyboard.press('Escape');
    await expect(widget.window).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
  });

  test('"new chat" asks before clearing, and header actions have names', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot();
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    await widget.ask('Can I return a product?');
    await widget.window.getByRole('button', { name: 'Start a new conversation' }).click();
    const confirm = widget.window.getByRole('alertdialog');
    await expect(confirm).toContainText('Start a new conversation? This one will be cleared.');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(widget.conversation).toContainText('Can I return a product?');
    await widget.window.getByRole('button', { name: 'Start a new conversation' }).click();
    await widget.window.getByRole('alertdialog').getByRole('button', { name: 'Start over' }).click();
    await expect(widget.conversation).not.toContainText('Can I return a product?');
    await expect(widget.window.getByRole('button', { name: 'Leave your contact details' })).toBeVisible();
  });
});
