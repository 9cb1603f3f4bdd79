import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

/** A visitor's widget conversation (saved through the public embed API, as the widget does) and a lead left in it. */
async function visitorConversation(api: APIRequestContext, chatbotId: string): Promise<string> {
  const saved = await api.post(`/v1/embed/${chatbotId}/conversation`, {
    headers: { 'x-api-key': '' },
    data: {
      messages: [
        { text: 'Do you sell gift cards?', fromUser: true },
        { text: 'I\'m sorry, I don\'t have information about gift cards.', fromUser: false },
        { text: 'What time do you open on Saturdays?', fromUser: true },
        { text: 'On Saturdays the shop opens at 10am and closes at 4pm.', fromUser: false },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const { id } = await saved.json() as { id: string };
  const lead = await api.post(`/v1/embed/${chatbotId}/leads`, { headers: { 'x-api-key': '' }, data: { name: 'Gift, "Card" Buyer', email: 'gifts@example.com', conversationId: id } });
  expect(lead.status(), await lead.text()).toBe(201);
  return id;
}

test('reads a widget conversation with its analysis, finds the unanswered question under knowledge gaps and jumps to add text', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Inbox shop' });
  await visitorConversation(api, chatbot.id);
  await expect.poll(async () => {
    const listing = await (await api.get(`/v1/conversation/${chatbot.id}`)).json() as { conversations: { analysis: { status: string } }[] };
    return listing.conversations[0]?.analysis.status;
  }, { timeout: 30_000 }).toBe('DONE');

  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Conversations');
  await owner.chooseChatbot('Inbox shop');
  const transcript = page.getByRole('region', { name: /Conversation of/ });
  await expect(transcript).toContainText('Do you sell gift cards?');
  await expect(transcript).toContainText('website');
  await expect(transcript.getByRole('heading', { name: 'Analysis' })).toBeVisible();
  await expect(transcript.getByText('Sentiment')).toBeVisible();
  await expect(transcript.getByRole('heading', { name: 'Key points' })).toBeVisible();
  await expect(transcript.getByRole('heading', { name: 'Next steps' })).toBeVisible();
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-inbox');

  await page.getByRole('searchbox', { name: 'Search' }).fill('saturdays');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('list', { name: 'Conversations' }).getByRole('listitem')).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search' }).fill('bicycles');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No conversations match.')).toBeVisible();

  await page.getByRole('button', { name: /Knowledge gaps/ }).click();
  const gap = page.getByRole('listitem').filter({ hasText: 'Do you sell gift cards?' });
  await expect(gap).toBeVisible();
  await owner.expectNoAxeViolations();
  await page.setViewportSize(PHONE);
  await owner.screenshot('console-knowledge-gaps-phone');
  await gap.getByRole('link', { name: 'Add text that answers it' }).click();
  await expect(page.getByRole('dialog', { name: 'Add text' }).getByRole('textbox', { name: 'Name' })).toHaveValue('Do you sell gift cards?');
});

test('lists leads with their conversation, exports them as CSV, and shows insights readable on a phone', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Leads shop' });
  const conversationId = await visitorConversation(api, chatbot.id);
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Leads');
  await owner.chooseChatbot('Leads shop');
  const row = page.getByRole('row').filter({ hasText: 'gifts@example.com' });
  await expect(row).toContainText('Gift, "Card" Buyer');
  await expect(row.getByRole('link', { name: /^Read it: the conversation of / })).toHaveAttribute('href', new RegExp(`conversation=${conversationId}`));
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-leads');

  // "Read it" opens the conversation at once (a deep link loads the inbox's data without "Apply").
  await row.getByRole('link', { name: /^Read it/ }).click();
  await expect(page.getByRole('region', { name: /Conversation of/ })).toContainText('Do you sell gift cards?');
  await page.goBack();
  await expect(row).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const csv = readFileSync(file, 'utf8').split('\r\n');
  expect(csv[0]).toBe('createdAt,name,email,phone,conversationId,pageUrl');
  expect(csv[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[^,]+,"Gift, ""Card"" Buyer",gifts@example.com,,${conversationId},$`));

  await owner.open('Insights');
  await owner.chooseChatbot('Leads shop');
  await expect(page.getByRole('img', { name: /^Conversations per day: / })).toBeVisible();
  for (const heading of ['Conversations per day', 'Messages per day', 'Sentiment', 'Top intents', 'Unanswered questions', 'Busiest hours (UTC)']) {
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(page.getByRole('img', { name: /^Conversations by hour of the day, UTC: / })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Share of visitor messages left unanswered: / })).toBeVisible();
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-insights');
  await page.setViewportSize(PHONE);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await owner.screenshot('console-insights-phone');
});
