import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { ChatWidgetHarness } from '../harnesses/chat-widget.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

const shot = (page: Page, name: string) => page.screenshot({ path: fileURLToPath(new URL(`../screenshots/${name}.png`, import.meta.url)), fullPage: true });

/** The owner in a browser of their own, signed in to the console with its live inbox open. */
async function ownerWatchingInbox(browser: Browser) {
  const ownerContext = await browser.newContext({ bypassCSP: true, baseURL: test.info().project.use.baseURL });
  const ownerPage = await ownerContext.newPage();
  const owner = new ConsoleHarness(ownerPage);
  await owner.signIn();
  await owner.open('Conversations');
  await ownerPage.getByRole('button', { name: 'Live', exact: true }).click();
  await expect(ownerPage.getByRole('status').filter({ hasText: 'Live ·' })).toBeVisible();
  return { ownerContext, ownerPage, owner };
}

/**
 * Live handoff (issue 35), two people at once: the visitor on a site of another origin asks for a
 * person; the owner, in the console, takes over and replies; the visitor replies back; the owner
 * hands the conversation back to the bot, which answers again.
 */
test('a visitor asks for a person, the owner takes over in the live inbox, they talk, and the bot takes over again', async ({ page, browser, createChatbot, openHostPage, widget }) => {
  const chatbot = await createChatbot({ name: 'Handoff shop' });

  // The owner watches the live inbox (so the team counts as available).
  const { ownerContext, ownerPage, owner } = await ownerWatchingInbox(browser);

  await openHostPage('allowed.test', { chatbotId: chatbot.id });
  await widget.open();
  await widget.ask('What time do you open on Saturdays?');
  await page.getByRole('button', { name: 'Talk to a person' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Someone from the team will be with you shortly.' })).toBeVisible();

  const inbox = ownerPage.getByRole('list', { name: 'Live conversations' });
  const item = inbox.getByRole('listitem').filter({ hasText: 'What time do you open on Saturdays?' });
  await expect(item).toContainText('Waiting for a person');
  await item.getByRole('button').click();
  await ownerPage.getByRole('button', { name: 'Take over' }).click();
  await expect(ownerPage.getByRole('heading', { name: /With the team/ })).toBeVisible();
  await ownerPage.getByLabel('Reply to the visitor').fill('Hi, this is the shop team. How can we help?');
  await ownerPage.getByRole('button', { name: 'Send', exact: true }).click();

  // The visitor sees the reply live, with who answers, and answers back (the bot stays silent).
  await expect(widget.conversation).toContainText('Hi, this is the shop team. How can we help?');
  await expect(widget.conversation).toContainText('Team');
  await widget.send('Can I pick up my order on Sunday?');
  await widget.waitForAnswer();
  const transcript = ownerPage.getByRole('region', { name: /Handoff shop/ });
  await expect(transcript).toContainText('Can I pick up my order on Sunday?');
  await shot(page, 'live-handoff-visitor');
  await owner.expectNoAxeViolations();
  await owner.screenshot('live-handoff-console');

  await page.setViewportSize(PHONE);
  await ownerPage.setViewportSize(PHONE);
  await shot(page, 'live-handoff-visitor-phone');
  await owner.screenshot('live-handoff-console-phone');

  // Handed back: the bot answers again.
  await ownerPage.getByRole('button', { name: 'Hand back to the bot' }).click();
  await expect(ownerPage.getByRole('heading', { name: /Handoff shop: Bot/ })).toBeVisible();
  const visitor = new ChatWidgetHarness(page);
  await visitor.ask('When do you close on Saturdays?');
  await expect(widget.conversation).toContainText('4pm');
  await ownerContext.close();
});

test('asking for a person in words brings the team too when someone is watching the inbox', async ({ page, browser, createChatbot, openHostPage, widget }) => {
  const chatbot = await createChatbot({ name: 'Words shop' });
  const { ownerContext, ownerPage } = await ownerWatchingInbox(browser);

  await openHostPage('allowed.test', { chatbotId: chatbot.id });
  await widget.open();
  await widget.ask('Is delivery free?');
  await widget.ask('Can I talk to a real person please?');
  await expect(page.getByRole('status').filter({ hasText: 'Someone from the team will be with you shortly.' })).toBeVisible();
  const item = ownerPage.getByRole('list', { name: 'Live conversations' }).getByRole('listitem').filter({ hasText: 'Is delivery free?' });
  await expect(item).toContainText('Waiting for a person');
  await ownerContext.close();
});
