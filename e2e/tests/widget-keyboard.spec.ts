import { expect, test } from '../fixtures/test.js';

test('a keyboard-only visitor opens the chat, asks, and closes it with Escape', async ({ page, createChatbot, openHostPage, widget }) => {
  const chatbot = await createChatbot({ websiteIntegration: { welcomeHeaderTitle: 'Acme assistant' } });
  await openHostPage('allowed.test', { chatbotId: chatbot.id });
  await expect(widget.launcher).toBeVisible();
  await widget.launcher.focus();
  await expect(widget.launcher).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(widget.messageBox).toBeFocused();
  await expect(widget.launcher).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.type('Is delivery free?');
  await page.keyboard.press('Enter');
  await widget.waitForAnswer();
  await expect(widget.conversation).toContainText('free for orders over 50 euros');
  // Back from the message box: the answer's 👍/👎 and source chips, then the conversation itself.
  await page.keyboard.press('Shift+Tab');
  await expect(widget.conversation.getByRole('button', { name: 'Not helpful' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(widget.conversation.getByRole('textbox', { name: 'What was missing or wrong? (optional)' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(widget.conversation).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(widget.window).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open chat with Acme helper' })).toBeFocused();
});
