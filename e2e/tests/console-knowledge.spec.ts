import { makePdf } from '../../server/src/features/resources/ingestion/fixtures/make-pdf.js';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

test('uploads a PDF and watches it reach DONE, then reads its passages with page numbers', async ({ page }) => {
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Knowledge');
  const pdf = makePdf(['The garden centre sells apple trees in spring.', 'Pear trees arrive in autumn.']);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload file' }).click();
  await (await chooser).setFiles({ name: 'garden-centre.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByRole('status').filter({ hasText: 'Uploaded garden-centre.pdf' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'garden-centre.pdf' });
  await expect(row.getByTestId('resource-status')).toHaveText('Ready', { timeout: 30_000 });
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-knowledge');

  await row.getByRole('link', { name: 'garden-centre.pdf' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'garden-centre.pdf' })).toBeVisible();
  const passages = page.getByRole('listitem');
  await expect(passages.filter({ hasText: 'apple trees in spring' })).toContainText('page 1');
  await expect(passages.filter({ hasText: 'Pear trees arrive in autumn' })).toContainText('page 2');
  await owner.expectNoAxeViolations();
  await page.setViewportSize(PHONE);
  await owner.screenshot('console-resource-phone');
});

test('edits a text resource and the playground answers from the new text, with its source', async ({ page, api, createTextResource, createChatbot }) => {
  const resourceId = await createTextResource('Returns policy', 'Returns are accepted within 14 days of purchase.');
  await createChatbot({ name: 'Returns desk' }, [resourceId]);
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Knowledge');
  await page.getByRole('button', { name: 'Edit Returns policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit "Returns policy"' });
  await expect(dialog.getByRole('textbox', { name: 'Content' })).toHaveValue('Returns are accepted within 14 days of purchase.');
  await dialog.getByRole('textbox', { name: 'Content' }).fill('Returns are accepted within 60 days of purchase.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await (await api.get(`/v1/resource/text/${resourceId}`)).json()).content).toContain('60 days');
  await expect.poll(async () => {
    const passages = await (await api.get(`/v1/resource/${resourceId}/passages`)).json() as { passages: { text: string }[] };
    return passages.passages.map((passage) => passage.text).join(' ');
  }, { timeout: 30_000 }).toContain('60 days');

  await owner.open('Playground');
  await owner.chooseChatbot('Returns desk');
  await page.getByRole('textbox', { name: 'Message' }).fill('How many days do I have to return something?');
  await page.getByRole('button', { name: 'Send' }).click();
  const answer = page.locator('.message.bot').last();
  await expect(answer).toContainText('60 days', { timeout: 30_000 });
  await expect(answer).not.toContainText('14 days');
  await expect(answer.getByRole('listitem').filter({ hasText: 'Returns policy' })).toContainText('60 days');
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-playground');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(page.getByText('Ask something your knowledge should answer.')).toBeVisible();
});

test('adds text and a website from their forms, and a delete refused by a chatbot names it', async ({ page, createTextResource, createChatbot }) => {
  const resourceId = await createTextResource('Warranty', 'Every product has a two year warranty.');
  await createChatbot({ name: 'Warranty desk' }, [resourceId]);
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await owner.open('Knowledge');
  await page.getByRole('button', { name: 'Add text' }).click();
  const textDialog = page.getByRole('dialog', { name: 'Add text' });
  await textDialog.getByRole('button', { name: 'Save' }).click();
  await expect(textDialog.getByText('Name must not be empty')).toBeVisible();
  await textDialog.getByRole('textbox', { name: 'Name' }).fill('Parking');
  await textDialog.getByRole('textbox', { name: 'Content' }).fill('Free parking is available behind the shop.');
  await textDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Parking' }).getByTestId('resource-status')).toHaveText('Ready', { timeout: 30_000 });

  await page.getByRole('button', { name: 'Add website' }).click();
  const siteDialog = page.getByRole('dialog', { name: 'Add website' });
  await siteDialog.getByRole('textbox', { name: 'Page URL' }).fill('not a url');
  await siteDialog.getByRole('button', { name: 'Save' }).click();
  await expect(siteDialog.getByText('Page URL must be an http or https URL')).toBeVisible();
  // Whole-site discovery (extension), the default: its fields are checked as the API checks them.
  await siteDialog.getByRole('combobox', { name: 'Discover more pages' }).selectOption('NONE');
  await expect(siteDialog.getByRole('textbox', { name: 'Never paths' })).toBeHidden();
  await siteDialog.getByRole('combobox', { name: 'Discover more pages' }).selectOption('SITEMAP');
  await expect(siteDialog.getByRole('textbox', { name: 'Most pages' })).toHaveValue('100');
  await siteDialog.getByRole('textbox', { name: 'Never paths' }).fill('blog/**');
  await expect(siteDialog.getByText('Never paths must be a path pattern starting with / (for example /blog/**)')).toBeVisible();
  await owner.expectNoAxeViolations();
  await siteDialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Delete Warranty' }).click();
  await page.getByRole('dialog', { name: 'Delete resource' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alert')).toContainText('"Warranty" is used by Warranty desk');
});
