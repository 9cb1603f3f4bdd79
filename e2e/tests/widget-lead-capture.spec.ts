import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/test.js';

test('a visitor leaves contact details and the owner finds the lead', async ({ page, api, createChatbot, openHostPage, widget }) => {
  const chatbot = await createChatbot();
  await openHostPage('allowed.test', { chatbotId: chatbot.id });
  await widget.open();
  await page.getByRole('button', { name: 'Leave your contact details' }).click();
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert')).toContainText('email address or a phone number');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('+44 20 7946 0958');
  await page.screenshot({ path: fileURLToPath(new URL('../screenshots/widget-lead-form.png', import.meta.url)) });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toContainText('Thank you');
  const listing = await (await api.get(`/v1/lead/${chatbot.id}`)).json();
  expect(listing.leads).toEqual([expect.objectContaining({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958' })]);
  await page.getByRole('button', { name: 'Continue chatting' }).click();
  await expect(widget.messageBox).toBeFocused();
});
