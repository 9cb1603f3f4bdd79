import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

const RESTRICT = 'Sorry, I can only answer questions about the shop.';
const QUESTION = 'Do you sell gift cards?';
const ANSWER = 'Yes: gift cards from 10 to 200 pounds, in the shop or online.';
const DESKTOP = { width: 1280, height: 800 };
const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

/** A screenshot of the viewport (a modal dialog is what the owner sees), kept under e2e/screenshots. */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
  if (process.env.GAPS_SHOTS_DIR) copyFileSync(path.join(screenshots, `${name}.png`), path.join(process.env.GAPS_SHOTS_DIR, `${name}.png`));
}

/** Asks in the playground and returns the chatbot's reply once it has finished. */
async function askInPlayground(page: Page, question: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Answering…' })).toHaveCount(0);
  return page.getByRole('region', { name: 'Conversation' }).locator('.message.bot').last();
}

test('a refused question becomes a knowledge gap; "Answer it" saves the owner\'s answer and the chatbot gives it', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Gaps shop', restrictAnswersToResourcesContentResponse: RESTRICT });
  const owner = new ConsoleHarness(page);
  await page.setViewportSize(DESKTOP);
  await owner.signIn();

  await owner.open('Playground');
  await owner.chooseChatbot('Gaps shop');
  const refused = await askInPlayground(page, QUESTION);
  await expect(refused).toContainText(RESTRICT);
  await expect(refused).toContainText('Refused');

  // Playground chats are not saved; a visitor asking the same in the widget is (as the widget saves it).
  const saved = await api.post(`/v1/embed/${chatbot.id}/conversation`, {
    headers: { 'x-api-key': '' }, data: { messages: [{ text: QUESTION, fromUser: true }, { text: RESTRICT, fromUser: false }] },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  await expect.poll(async () => ((await (await api.get(`/v1/chatbot/${chatbot.id}/gaps`)).json()) as { gaps: unknown[] }).gaps.length,
    { timeout: 30_000 }).toBe(1);

  // The deep link from Insights loads the page's data without "Apply".
  await owner.open('Insights');
  await owner.chooseChatbot('Gaps shop');
  await page.getByRole('link', { name: 'See the unanswered questions' }).click();
  await expect(page.getByRole('button', { name: 'Knowledge gaps (1)' })).toBeVisible();
  const gap = page.getByRole('listitem').filter({ hasText: QUESTION });
  await expect(gap).toContainText('Asked once');
  await expect(page.getByRole('heading', { name: 'Outside your knowledge (1)' })).toBeVisible();
  await owner.expectNoAxeViolations();
  await shot(page, 'knowledge-gaps-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'knowledge-gaps-phone');
  await page.setViewportSize(DESKTOP);

  await gap.getByRole('button', { name: `Answer it: ${QUESTION}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Answer it' });
  await expect(dialog.getByRole('textbox', { name: 'Questions it answers' })).toHaveValue(QUESTION);
  await expect(dialog.getByRole('textbox', { name: 'The right answer' })).toBeFocused();
  await expect(dialog).toContainText(`The chatbot answered: “${RESTRICT}”`);
  await dialog.getByRole('textbox', { name: 'Questions it answers' }).fill(`${QUESTION}\nCan I buy a gift voucher?`);
  await dialog.getByRole('textbox', { name: 'The right answer' }).fill(ANSWER);
  await owner.expectNoAxeViolations();
  await shot(page, 'answer-dialog-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'answer-dialog-phone');
  await page.setViewportSize(DESKTOP);

  await dialog.getByRole('button', { name: 'Save answer' }).click();
  await expect(dialog.getByRole('region', { name: 'Now' })).toContainText(ANSWER, { timeout: 60_000 });
  await expect(dialog.getByRole('region', { name: 'Before' })).toContainText(RESTRICT);
  await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
  await owner.expectNoAxeViolations();
  await shot(page, 'answer-dialog-answered-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'answer-dialog-answered-phone');
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Knowledge gaps (0)' })).toBeVisible();

  // Each chatbot message of a conversation can be corrected the same way.
  await page.getByRole('button', { name: 'Inbox' }).click();
  const transcript = page.getByRole('region', { name: /Conversation of/ });
  await expect(transcript).toContainText(RESTRICT);
  await shot(page, 'conversation-view-desktop');
  await transcript.getByRole('button', { name: `Correct this answer to: ${QUESTION}` }).click();
  const correct = page.getByRole('dialog', { name: 'Correct this answer' });
  await expect(correct).toContainText(`The chatbot answered: “${RESTRICT}”`);
  await expect(correct.getByRole('textbox', { name: 'Questions it answers' })).toHaveValue(QUESTION);
  await owner.expectNoAxeViolations();
  await shot(page, 'correct-answer-conversation-desktop');
  await page.keyboard.press('Escape');
  await expect(correct).toBeHidden();
  await expect(transcript.getByRole('button', { name: `Correct this answer to: ${QUESTION}` })).toBeFocused();

  const chatbotNow = await (await api.get(`/v1/chatbot/${chatbot.id}`)).json() as { resources: string[] };
  expect(chatbotNow.resources).toHaveLength(2);

  await owner.open('Playground');
  await owner.chooseChatbot('Gaps shop');
  await expect(await askInPlayground(page, QUESTION)).toContainText(ANSWER);
});

test('"Correct this answer" in the playground saves the owner\'s answer and shows it beside the old one', async ({ page, createChatbot }) => {
  await createChatbot({ name: 'Correct shop', restrictAnswersToResourcesContentResponse: RESTRICT });
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Playground');
  await owner.chooseChatbot('Correct shop');
  const reply = await askInPlayground(page, 'Is there parking?');
  await reply.getByRole('button', { name: 'Correct this answer to: Is there parking?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Correct this answer' });
  await expect(dialog.getByRole('textbox', { name: 'Questions it answers' })).toHaveValue('Is there parking?');
  await dialog.getByRole('textbox', { name: 'The right answer' }).fill('Free parking behind the shop.');
  await dialog.getByRole('button', { name: 'Save answer' }).click();
  await expect(dialog.getByRole('region', { name: 'Now' })).toContainText('Free parking behind the shop.', { timeout: 60_000 });
  await expect(dialog.getByRole('region', { name: 'Before' })).toContainText(RESTRICT);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('"Dismiss" hides a gap for good, and a link to the gaps view loads them at once', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Dismiss shop', restrictAnswersToResourcesContentResponse: RESTRICT });
  const saved = await api.post(`/v1/embed/${chatbot.id}/conversation`, {
    headers: { 'x-api-key': '' }, data: { messages: [{ text: 'Can I bring my dog?', fromUser: true }, { text: RESTRICT, fromUser: false }] },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  await expect.poll(async () => ((await (await api.get(`/v1/chatbot/${chatbot.id}/gaps`)).json()) as { gaps: unknown[] }).gaps.length,
    { timeout: 30_000 }).toBe(1);
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.goto(`/console/conversations?chatbot=${chatbot.id}&view=gaps`);
  await page.getByRole('button', { name: 'Dismiss: Can I bring my dog?' }).click();
  await expect(page.getByRole('button', { name: 'Knowledge gaps (0)' })).toBeVisible();
  await expect(page.getByText('No unanswered questions in this range.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Inbox' }).click();
  await expect(page.getByRole('list', { name: 'Conversations' })).toContainText('Can I bring my dog?');
  await expect(page.getByRole('button', { name: 'Knowledge gaps (0)' })).toBeVisible();
  expect(((await (await api.get(`/v1/chatbot/${chatbot.id}/gaps`)).json()) as { gaps: unknown[] }).gaps).toEqual([]);
});

test('"Add text that answers it" adds the text to the chatbot whose gap it is, closes the gap, and the chatbot answers from it', async ({ page, api, createChatbot }) => {
  const question = 'Do you run pottery workshops for children?';
  const text = 'Children\'s workshops. We run pottery workshops for children aged 6 to 12 every Saturday morning; a session costs 15 pounds, clay included.';
  const chatbot = await createChatbot({ name: 'Text shop', restrictAnswersToResourcesContentResponse: RESTRICT });
  const saved = await api.post(`/v1/embed/${chatbot.id}/conversation`, {
    headers: { 'x-api-key': '' }, data: { messages: [{ text: question, fromUser: true }, { text: RESTRICT, fromUser: false }] },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  await expect.poll(async () => ((await (await api.get(`/v1/chatbot/${chatbot.id}/gaps`)).json()) as { gaps: unknown[] }).gaps.length,
    { timeout: 30_000 }).toBe(1);
  const owner = new ConsoleHarness(page);
  await page.setViewportSize(DESKTOP);
  await owner.signIn();
  await page.goto(`/console/conversations?chatbot=${chatbot.id}&view=gaps`);
  await page.getByRole('listitem').filter({ hasText: question }).getByRole('link', { name: 'Add text that answers it' }).click();

  const dialog = page.getByRole('dialog', { name: 'Add text' });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue(question);
  await expect(dialog).toContainText('The text is added to the knowledge of Text shop');
  await dialog.getByRole('textbox', { name: 'Content' }).fill(text);
  await owner.expectNoAxeViolations();
  await shot(page, 'add-text-for-gap-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'add-text-for-gap-phone');
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  // The text may already be indexed by the time the status is read: then it says so instead.
  await expect(page.getByRole('status').filter({ hasText: new RegExp(`Saved ${question.replace(/[?]/g, '\\?')} and added to Text shop|${question.replace(/[?]/g, '\\?')} is ready`) })).toBeVisible();

  const chatbotNow = await (await api.get(`/v1/chatbot/${chatbot.id}`)).json() as { resources: string[] };
  expect(chatbotNow.resources).toHaveLength(2);
  const added = chatbotNow.resources.at(-1)!;
  await expect.poll(async () => ((await (await api.get(`/v1/resource/${added}`)).json()) as { aiProcessingStatus: string }).aiProcessingStatus,
    { timeout: 60_000 }).toBe('DONE');
  expect(((await (await api.get(`/v1/chatbot/${chatbot.id}/gaps`)).json()) as { gaps: unknown[] }).gaps).toEqual([]);

  await owner.open('Playground');
  await owner.chooseChatbot('Text shop');
  const answer = await askInPlayground(page, question);
  await expect(answer).toContainText('15 pounds');
  await expect(answer).not.toContainText('Refused');
  await shot(page, 'add-text-for-gap-answered-desktop');
});
