import type { Page } from '@playwright/test';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

/** Whether anything inside the widget preview (shadow roots included) is painted with this background. */
function previewHasBackground(page: Page, rgb: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const visit = (root: ParentNode): boolean => [...root.querySelectorAll('*')].some((element) =>
      getComputedStyle(element).backgroundColor === wanted || getComputedStyle(element).backgroundImage.includes(wanted)
      || (element.shadowRoot !== null && visit(element.shadowRoot)));
    const widget = document.querySelector('chatbot-widget');
    return widget?.shadowRoot ? visit(widget.shadowRoot) : false;
  }, rgb);
}

test('creates a chatbot with inline validation, lists it, and offers its embed code', async ({ page }) => {
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.getByRole('button', { name: 'New chatbot' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New chatbot' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name must not be empty')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  // Offline (no provider keys in the journeys), every model name says the built-in engine answers it.
  await expect(page.getByRole('combobox', { name: 'Model' }).getByRole('option', { name: 'alpha-4o-mini — built-in engine' })).toBeAttached();
  await page.getByRole('combobox', { name: 'Access level' }).selectOption('PRIVATE');
  await page.getByLabel('Password').fill('short');
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await page.getByLabel('Password').fill('Str0ng!pass');
  await page.getByRole('textbox', { name: 'Name' }).fill('Console journey bot');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbot: Console journey bot' })).toBeVisible();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const id = /\/console\/chatbots\/([0-9a-f]{24})$/.exec(page.url())![1]!;
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`<script src="${new URL(page.url()).origin}/widget.js" data-chatbot-id="${id}" async></script>`);
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-chatbot-editor');

  await owner.open('Chatbots');
  const row = page.getByRole('row').filter({ hasText: 'Console journey bot' });
  await expect(row).toContainText('PRIVATE');
  await expect(row).toContainText('alpha-4o-mini');
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-chatbots');
  await page.setViewportSize(PHONE);
  // On a phone each chatbot is a card: its actions are on screen without scrolling the table sideways.
  await expect(row.getByRole('button', { name: 'Delete Console journey bot' })).toBeInViewport({ ratio: 1 });
  await owner.screenshot('console-chatbots-phone');
});

test('previews unsaved colours in the real widget, warns about contrast, then saves', async ({ page, createChatbot, api }) => {
  const chatbot = await createChatbot({ name: 'Colourful' });
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.goto(`/console/chatbots/${chatbot.id}/appearance`);
  await expect(page.locator('chatbot-widget')).toBeAttached();
  await expect.poll(() => previewHasBackground(page, 'rgb(255, 204, 0)')).toBe(false);
  await page.getByLabel('Chatbot message background').fill('#ffcc00');
  await expect.poll(() => previewHasBackground(page, 'rgb(255, 204, 0)')).toBe(true);
  // Not saved yet.
  expect((await (await api.get(`/v1/chatbot/${chatbot.id}`)).json()).chatbotMessageColor).toBe('#F6F7F8');

  await page.getByRole('checkbox', { name: 'Header gradient' }).check();
  for (const [index, color] of ['#ffffff', '#000000', '#ffffff', '#000000'].entries()) await page.getByLabel(`Gradient stop ${index + 1}`).fill(color);
  await expect(page.getByText('Unsaved gradient: contrast below WCAG AA.')).toBeVisible();
  for (const [index, color] of ['#1e3a8a', '#1d4ed8', '#1e40af', '#312e81'].entries()) await page.getByLabel(`Gradient stop ${index + 1}`).fill(color);
  await expect(page.getByText(/contrast below WCAG AA/)).toHaveCount(0);
  // Typed key by key: the preview re-renders on each change without taking the focus away.
  const title = page.getByRole('textbox', { name: 'Header title' });
  await title.click();
  await title.pressSequentially('Ask us anything', { delay: 30 });
  await expect(title).toBeFocused();
  await expect(title).toHaveValue('Ask us anything');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const saved = await (await api.get(`/v1/chatbot/${chatbot.id}`)).json();
  expect(saved).toMatchObject({ chatbotMessageColor: '#FFCC00', gradientColors: ['#1E3A8A', '#1D4ED8', '#1E40AF', '#312E81'] });
  expect(saved.websiteIntegration.welcomeHeaderTitle).toBe('Ask us anything');
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-appearance');
  await page.setViewportSize(PHONE);
  await owner.screenshot('console-appearance-phone');
});

test('shows the API\'s colour warnings for the saved gradient, and what an edit would change before it is saved', async ({ page, createChatbot, api }) => {
  const chatbot = await createChatbot({ name: 'Striped', gradientColors: ['#FFFFFF', '#000000', '#FFFFFF', '#000000'] });
  const [warning] = chatbot.warnings as { message: string; adjustedTo: string[] }[];
  expect(warning!.adjustedTo).toEqual(['#757575', '#000000', '#757575', '#000000']);
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.goto(`/console/chatbots/${chatbot.id}/appearance`);
  const warnings = page.getByRole('status').filter({ hasText: 'contrast below WCAG AA' });
  await expect(warnings).toContainText('Saved gradient: contrast below WCAG AA.');
  // The API's own words, and every stop as the widget paints it, white text on each.
  await expect(warnings).toContainText(`${warning!.message.charAt(0).toUpperCase()}${warning!.message.slice(1)}.`);
  const stops = warnings.getByRole('list', { name: 'Gradient stops as the widget paints them' }).getByRole('listitem');
  await expect(stops).toHaveText(['Aa #FFFFFF → #757575', 'Aa #000000', 'Aa #FFFFFF → #757575', 'Aa #000000']);
  await expect(stops.first().getByText('Aa')).toHaveCSS('background-color', 'rgb(117, 117, 117)');
  await expect(stops.first().getByText('Aa')).toHaveCSS('color', 'rgb(255, 255, 255)');
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-appearance-warning');

  // An edit that would be adjusted differently is previewed as unsaved; one that reads is free of warnings once saved.
  await page.getByLabel('Gradient stop 2').fill('#eeeeee');
  await expect(warnings).toContainText('Unsaved gradient: contrast below WCAG AA.');
  // Now three light stops to one dark: black text, and the dark stop lightened.
  await expect(stops).toHaveText(['Aa #FFFFFF', 'Aa #EEEEEE', 'Aa #FFFFFF', 'Aa #000000 → #757575']);
  await expect(stops.first().getByText('Aa')).toHaveCSS('color', 'rgb(0, 0, 0)');
  for (const [index, color] of ['#1e3a8a', '#1d4ed8', '#1e40af', '#312e81'].entries()) await page.getByLabel(`Gradient stop ${index + 1}`).fill(color);
  await expect(warnings).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect((await (await api.get(`/v1/chatbot/${chatbot.id}`)).json()).warnings).toBeUndefined();
  await expect(warnings).toHaveCount(0);
  await page.setViewportSize(PHONE);
  await page.getByLabel('Gradient stop 1').fill('#ffffff');
  await expect(warnings).toContainText('Unsaved gradient');
  await owner.screenshot('console-appearance-warning-phone');
});
