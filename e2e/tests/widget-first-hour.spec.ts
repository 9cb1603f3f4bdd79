import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, test } from '../fixtures/test.js';

// Issue 40, item 5: the widget's rough edges an owner met in the first hour.
const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));

test('RTL: popup messages line up with the launcher, in Arabic and in English alike', async ({ page, createChatbot, openHostPage }) => {
  const chatbot = await createChatbot({
    websiteIntegration: { locale: 'ar', bubbleAlignment: 'right', bubblePopupMessages: ['مرحبا! كيف يمكننا مساعدتك؟', 'Fresh bread every morning'] },
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openHostPage('rtl.acme.test', { chatbotId: chatbot.id });
  const launcherButton = page.locator('chatbot-widget').locator('button.launcher');
  await expect(launcherButton).toBeVisible();
  const launcher = (await launcherButton.boundingBox())!;
  const popups = page.locator('chatbot-widget').locator('cw-popup-messages button.message');
  await expect(popups).toHaveCount(2);
  for (const popup of await popups.all()) {
    const box = (await popup.boundingBox())!;
    expect(Math.abs(box.x + box.width - (launcher.x + launcher.width))).toBeLessThan(4);
  }
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${screenshots}/widget-rtl-popups.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${screenshots}/widget-rtl-popups-phone.png` });
});

test('the "Jump to the latest message" pill never covers the 👎 comment box', async ({ page, createChatbot, openHostPage, widget }) => {
  const chatbot = await createChatbot();
  await page.setViewportSize({ width: 390, height: 844 });
  await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
  await widget.open();
  for (const question of ['When does the shop open on Saturdays?', 'Can I return a product?', 'How long does delivery take?']) {
    await widget.ask(question);
  }
  // 👎 on the last answer, then on the one before: its comment box opens while the end is out of view.
  const notHelpful = widget.window.getByRole('button', { name: 'Not helpful' });
  await notHelpful.last().click();
  await notHelpful.nth((await notHelpful.count()) - 2).click();
  const comment = widget.window.getByRole('textbox', { name: 'What was missing or wrong? (optional)' }).first();
  await expect(comment).toBeFocused();
  // While the visitor writes, the pill stays away (it sat over the comment boxes near the end).
  await expect(widget.window.getByRole('button', { name: 'Jump to the latest message' })).toBeHidden();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${screenshots}/widget-feedback-comment-phone.png` });
});
