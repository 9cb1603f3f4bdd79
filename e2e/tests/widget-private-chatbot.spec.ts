import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/test.js';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));
const PASSWORD = 'Tr0ub4dor&3-horse';
const privateBot = { accessLevel: 'PRIVATE', password: PASSWORD, websiteIntegration: { welcomeHeaderTitle: 'Staff handbook' } };

test.describe('a PRIVATE chatbot', () => {
  test('asks the visitor for the password before chatting, on a host page', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot(privateBot);
    await openHostPage('allowed.test', { chatbotId: chatbot.id });
    await widget.open();
    await expect(widget.messageBox).toHaveCount(0);
    await expect(page.getByLabel('Password')).toBeFocused();
    await widget.unlock('not-the-password');
    await expect(page.getByRole('alert')).toContainText('not right');
    await page.screenshot({ path: `${screenshots}/widget-password-gate.png` });
    await widget.unlock(PASSWORD);
    await expect(widget.messageBox).toBeFocused();
    await widget.ask('What time do you close on weekdays?');
    await expect(widget.conversation).toContainText('6pm');
  });

  test('the chat link page shows the same gate and saves its conversation with source link', async ({
    page, api, createChatbot, widget,
  }) => {
    const chatbot = await createChatbot(privateBot);
    await page.goto(`/chat/${chatbot.id}`);
    await expect(page).toHaveTitle('Acme helper');
    await expect(widget.launcher).toHaveCount(0);
    await widget.unlock(PASSWORD);
    await widget.ask('Do you accept returns?');
    await expect(widget.conversation).toContainText('30 days');
    await page.screenshot({ path: `${screenshots}/chat-link.png` });
    await expect.poll(async () => {
      const listing = await (await api.get(`/v1/conversation/${chatbot.id}`)).json();
      return listing.conversations.map((c: { source: { type: string } }) => c.source.type);
    }).toEqual(['link']);
  });

  test('embed calls without a session are refused with 401', async ({ request, createChatbot }) => {
    const chatbot = await createChatbot(privateBot);
    const response = await request.post(`/v1/embed/${chatbot.id}/chat-stream`, {
      headers: { origin: 'http://allowed.test' }, data: { conversation: [{ text: 'hi', fromUser: true }] },
    });
    expect(response.status()).toBe(401);
  });
});
