import type { APIRequestContext } from '@playwright/test';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true, viewport: { width: 1280, height: 800 } });

/** A visitor's widget conversation (saved through the public embed API, as the widget does), and its visitor token. */
async function visitorConversation(api: APIRequestContext, chatbotId: string, texts: [string, boolean][]): Promise<{ id: string; visitorToken: string }> {
  const saved = await api.post(`/v1/embed/${chatbotId}/conversation`, {
    headers: { 'x-api-key': '' }, data: { messages: texts.map(([text, fromUser]) => ({ text, fromUser })) },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  return await saved.json() as { id: string; visitorToken: string };
}

/** The visitor's 👍/👎 on one answer, as the widget gives it. */
async function rate(api: APIRequestContext, chatbotId: string, conversation: { id: string; visitorToken: string }, messageIndex: number, rating: 'up' | 'down', comment?: string) {
  const res = await api.post(`/v1/embed/${chatbotId}/feedback`, {
    headers: { 'x-api-key': '' }, data: { conversationId: conversation.id, visitorToken: conversation.visitorToken, messageIndex, rating, comment },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test('shows a visitor\'s 👎 and comment in the conversation, narrows the list to rated 👎, and shows the 👍 share in Insights', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Rated shop' });
  const giftCards = await visitorConversation(api, chatbot.id, [
    ['Do you sell gift cards?', true], ['I\'m sorry, I don\'t have information about gift cards.', false],
    ['What time do you open on Saturdays?', true], ['On Saturdays the shop opens at 10am and closes at 4pm.', false],
  ]);
  await rate(api, chatbot.id, giftCards, 1, 'down', 'I wanted to buy one for my sister');
  await rate(api, chatbot.id, giftCards, 3, 'up');
  const returns = await visitorConversation(api, chatbot.id, [['Can I return a jacket?', true], ['Returns are accepted within 30 days of purchase with a receipt.', false]]);
  await rate(api, chatbot.id, returns, 1, 'up');
  await visitorConversation(api, chatbot.id, [['Hello there', true], ['Hi! How can I help you today?', false]]);

  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Conversations');
  await owner.chooseChatbot('Rated shop');
  const list = page.getByRole('list', { name: 'Conversations' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await list.getByRole('button', { name: 'Do you sell gift cards?' }).click();
  const transcript = page.getByRole('region', { name: /Conversation of/ });
  await expect(transcript.getByText('Visitor rated this answer not helpful')).toContainText('I wanted to buy one for my sister');
  await expect(transcript.getByText('Visitor rated this answer helpful')).toHaveCount(1);

  await page.getByRole('combobox', { name: 'Rating' }).selectOption({ label: 'Rated 👎 not helpful' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('👎 1 not helpful, 👍 1 helpful');
  await expect(transcript).toContainText('I wanted to buy one for my sister');
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-feedback-conversation');
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await owner.screenshot('console-feedback-conversation-phone');

  await page.setViewportSize({ width: 1280, height: 800 });
  await owner.open('Insights');
  await owner.chooseChatbot('Rated shop');
  const ratings = page.getByRole('region', { name: 'Visitor ratings' });
  await expect(ratings).toContainText(/2 answers rated helpful 👍, 1 not helpful 👎:\s+67% helpful\./);
  await expect(ratings.getByRole('img', { name: 'Share of rated answers rated helpful: 66.7%' })).toBeVisible();
  await expect(ratings.getByRole('img', { name: /^Ratings per day: \d\d-\d\d 2 helpful, 1 not helpful$/ })).toBeVisible();
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-feedback-insights');
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await owner.screenshot('console-feedback-insights-phone');

  await ratings.getByRole('link', { name: 'See the answers rated not helpful' }).click();
  await expect(page.getByRole('combobox', { name: 'Rating' })).toHaveValue('down');
  await expect(page.getByRole('list', { name: 'Conversations' }).getByRole('listitem')).toHaveCount(1);
});
