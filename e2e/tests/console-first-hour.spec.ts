import { makeDocx } from '../../server/src/features/resources/ingestion/fixtures/make-documents.js';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

// Issue 40, item 2: an owner's first hour — the files they have, and defaults that do not surprise.
test.use({ bypassCSP: true });

test('knowledge added from a chatbot\'s page is attached to it; a Word document is read by content', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Bakery helper' }, []);
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.goto(`/console/chatbots/${chatbot.id}`);
  await page.getByRole('link', { name: 'Add knowledge to this chatbot' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge' })).toBeVisible();
  await expect(page.getByTestId('attach-notice')).toContainText('Bakery helper');

  const docx = await makeDocx([
    { heading: 1, text: 'Bakery price list' },
    { table: [['Bread', 'Price'], ['Sourdough loaf', '£4.50'], ['Seeded rye', '£3.90']] },
  ]);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload file' }).click();
  // Named without an extension: the type is told by content.
  await (await chooser).setFiles({ name: 'price list', mimeType: 'application/octet-stream', buffer: docx });
  await expect(page.getByRole('status').filter({ hasText: 'Uploaded price list and added to Bakery helper' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'price list' });
  await expect(row.getByTestId('resource-status')).toHaveText('Ready', { timeout: 30_000 });
  await expect(row).toContainText('Word document');
  await expect(row.getByRole('link', { name: 'Bakery helper' })).toBeVisible();
  const attached = await (await api.get(`/v1/chatbot/${chatbot.id}`)).json() as { resources: string[] };
  expect(attached.resources).toHaveLength(1);
  // No video host is configured here, so hosted videos are not offered.
  await expect(page.getByRole('button', { name: 'Add hosted video' })).toHaveCount(0);
  await owner.expectNoAxeViolations();
  await owner.screenshot('first-hour-knowledge');
  await page.setViewportSize(PHONE);
  await owner.screenshot('first-hour-knowledge-phone');
});

test('a new website crawls the whole site by default, and its settings can be changed afterwards', async ({ page, api }) => {
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Knowledge');
  await page.getByRole('button', { name: 'Add website' }).click();
  const add = page.getByRole('dialog', { name: 'Add website' });
  await expect(add.getByRole('combobox', { name: 'Discover more pages' })).toHaveValue('SITEMAP_AND_LINKS');
  await expect(add.getByRole('textbox', { name: 'Most pages' })).toHaveValue('100');
  await add.getByRole('textbox', { name: 'Page URL' }).fill('https://crumb-bakery.example/');
  await add.getByRole('textbox', { name: 'Most pages' }).fill('20');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'crumb-bakery.example' });
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: /^Settings of / }).click();
  const edit = page.getByRole('dialog', { name: 'Website settings' });
  await expect(edit.getByRole('textbox', { name: 'Most pages' })).toHaveValue('20');
  await expect(edit.getByRole('combobox', { name: 'Discover more pages' })).toHaveValue('SITEMAP_AND_LINKS');
  await edit.getByRole('textbox', { name: 'Most pages' }).fill('30');
  await edit.getByRole('combobox', { name: 'Read it again' }).selectOption({ label: 'Every week' });
  await expect(edit.getByText('SEVEN_DAYS')).toBeVisible();
  await owner.expectNoAxeViolations();
  await owner.screenshot('first-hour-website-settings');
  await page.setViewportSize(PHONE);
  await owner.screenshot('first-hour-website-settings-phone');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  const resources = await (await api.get('/v1/resource/all')).json() as { id: string; fileName: string }[];
  const site = resources.find((resource) => resource.fileName === 'https://crumb-bakery.example/')!;
  await expect.poll(async () => (await api.get(`/v1/resource/website/${site.id}`)).json()).toMatchObject({
    syncFrequency: 'SEVEN_DAYS', settings: { discovery: 'SITEMAP_AND_LINKS', maxPages: 30 },
  });
});

test('the chatbot page shows where the widget was loaded and which origins its allowed domains refused', async ({ page, createChatbot, openHostPage, widget }) => {
  const chatbot = await createChatbot({ name: 'Domain check', websiteIntegration: { allowedDomains: ['allowed.test'] } });
  await openHostPage('allowed.test', { chatbotId: chatbot.id });
  await expect(widget.launcher).toBeVisible();
  await openHostPage('refused.test', { chatbotId: chatbot.id });
  await expect(widget.launcher).toHaveCount(0);

  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.goto(`/console/chatbots/${chatbot.id}`);
  await expect(page.getByTestId('embed-loaded')).toContainText(/Last loaded on allowed\.test:\d+, (just now|\d+ minutes? ago)/);
  await expect(page.getByTestId('embed-refused')).toContainText('refused.test');
  await expect(page.getByTestId('embed-refused').getByRole('link', { name: 'Appearance' })).toBeVisible();
  // Access levels in words, with the API value in the help text.
  await expect(page.getByRole('combobox', { name: 'Access level' })).toContainText('Public: anyone can chat');
  await expect(page.getByText('In the API: accessLevel PUBLIC.')).toBeVisible();
  await expect(page.getByTestId('personality-note')).toBeVisible();
  await owner.expectNoAxeViolations();
  await owner.screenshot('first-hour-embed-check');
  await page.setViewportSize(PHONE);
  await owner.screenshot('first-hour-embed-check-phone');
});

test('every widget setting is in the console with the live preview: language, starter questions, lead offer, daily messages', async ({ page, api, createChatbot }) => {
  const chatbot = await createChatbot({ name: 'Widget settings' });
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await page.goto(`/console/chatbots/${chatbot.id}/appearance`);
  await expect(page.getByRole('heading', { level: 1, name: 'Appearance: Widget settings' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Starter questions' }).fill('When do you open?\nDo you deliver?');
  const preview = page.getByTestId('widget-preview');
  await expect(preview.getByRole('button', { name: 'Do you deliver?' })).toBeVisible();
  // A brand colour: the preview's header, launcher and send button take it, with readable text.
  await page.getByRole('checkbox', { name: 'Brand colour (header, launcher and send button)' }).check();
  // A pale one is darkened by the widget (the shared accentOf): the console says which colour it will use.
  await page.locator('#brand-color').fill('#bfdbfe');
  await expect(page.getByTestId('brand-painted')).toHaveText(/The widget will use #245FA8, a darker shade, so the buttons stand out and\s+white text on it stays readable \(6\.4:1\)\./);
  await expect(page.getByTestId('brand-contrast')).toContainText('text #ffffff, 6.4:1');
  await expect(preview.getByRole('button', { name: /send/i })).toHaveCSS('background-color', 'rgb(36, 95, 168)');
  await page.locator('#brand-color').fill('#7c2d12');
  await expect(page.getByTestId('brand-painted')).toContainText('The widget uses #7C2D12 as it is, with white text');
  await expect(page.getByTestId('brand-contrast')).toContainText('text #ffffff');
  await expect(preview.getByRole('button', { name: /send/i })).toHaveCSS('background-color', 'rgb(124, 45, 18)');
  await page.getByRole('combobox', { name: 'Language of the widget' }).selectOption({ label: 'Arabic' });
  await expect(preview.locator('chatbot-widget [dir="rtl"]').first()).toBeAttached();
  await page.getByRole('textbox', { name: 'Offer the contact form after this many answers' }).fill('2');
  await page.getByRole('textbox', { name: 'Visitor messages per day' }).fill('many');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/Visitor messages per day:/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Visitor messages per day' }).fill('500');
  await owner.expectNoAxeViolations();
  await owner.screenshot('first-hour-widget-settings-rtl');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const saved = await (await api.get(`/v1/chatbot/${chatbot.id}`)).json() as { websiteIntegration: Record<string, unknown> };
  expect(saved.websiteIntegration).toMatchObject({
    locale: 'ar', suggestedQuestions: ['When do you open?', 'Do you deliver?'], leadOfferAfterTurns: 2, dailyVisitorMessages: 500, brandColor: '#7C2D12',
  });

  // Back to the visitor's language and no lead offer timing: the settings are removed, not kept.
  await page.getByRole('combobox', { name: 'Language of the widget' }).selectOption({ label: 'The visitor\'s browser language' });
  await page.getByRole('textbox', { name: 'Offer the contact form after this many answers' }).fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await (await api.get(`/v1/chatbot/${chatbot.id}`)).json() as { websiteIntegration: Record<string, unknown> }).websiteIntegration)
    .not.toHaveProperty('locale');
  await page.setViewportSize(PHONE);
  await owner.screenshot('first-hour-widget-settings-phone');
});
