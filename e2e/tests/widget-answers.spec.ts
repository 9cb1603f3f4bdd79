import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makePdf } from '../../server/src/features/resources/ingestion/fixtures/make-pdf.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, test, type Fixtures } from '../fixtures/test.js';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));
const video = readFileSync(fileURLToPath(new URL('../../server/src/features/resources/ingestion/fixtures/subtitled-mov-text.mp4', import.meta.url)));

async function upload(api: Fixtures['api'], name: string, buffer: Buffer, mimeType: string): Promise<string> {
  const created = await api.post('/v1/resource/file', { multipart: { file: { name, mimeType, buffer } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json() as { id: string };
  await expect.poll(async () => ((await (await api.get(`/v1/resource/${id}`)).json()) as { aiProcessingStatus: string }).aiProcessingStatus,
    { timeout: 30_000 }).toBe('DONE');
  return id;
}

test.describe('answers a visitor can check and rate', () => {
  test('source chips name the PDF page and the video moment, streamed and after a reload', async ({ page, api, createChatbot, openHostPage, widget }) => {
    const pdf = await upload(api, 'Tent manual.pdf', makePdf([
      'Welcome to the Trailhead tent manual. Keep this booklet with the tent.',
      'Pitching the tent: stake the four corners first, then clip the poles to the inner tent.',
    ]), 'application/pdf');
    const mp4 = await upload(api, 'Quokka video.mp4', video, 'video/mp4');
    const chatbot = await createChatbot({}, [pdf, mp4]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    await widget.ask('How do I pitch the tent? Stake the corners?');
    const sources = widget.conversation.getByRole('list', { name: 'Sources' }).last();
    await expect(sources.getByText(/Tent manual\.pdf.*p\. 2/)).toBeVisible();
    await widget.ask('Where does the quokka live?');
    const videoChip = widget.conversation.getByRole('list', { name: 'Sources' }).last().getByText('Quokka video.mp4 · 0:00');
    await expect(videoChip).toBeVisible();
    await widget.conversation.getByRole('button', { name: /Show the passage: Tent manual/ }).first().click();
    await expect(widget.conversation.locator('.source blockquote').first()).toContainText('stake the four corners');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${screenshots}/widget-source-chips.png` });
    await page.reload();
    await widget.open();
    await expect(widget.conversation.getByText(/Tent manual\.pdf.*p\. 2/).first()).toBeVisible();
    await expect(widget.conversation.getByText('Quokka video.mp4 · 0:00')).toBeVisible();
  });

  test('👍 and 👎 with a comment are stored with the conversation and listed for the owner', async ({ page, api, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot({ websiteIntegration: { suggestedQuestions: ['When does the shop open on Saturdays?', 'Can I return a product?'] } });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    const starters = widget.window.getByRole('group', { name: 'Suggested questions' });
    await expect(starters.getByRole('button')).toHaveText(['When does the shop open on Saturdays?', 'Can I return a product?']);
    await expectNoAxeViolations(page);
    await starters.getByRole('button', { name: 'When does the shop open on Saturdays?' }).click();
    await widget.waitForAnswer();
    await expect(widget.conversation).toContainText('10am');
    await expect(starters).toHaveCount(0);
    await widget.ask('Can I return a product?');
    await widget.conversation.getByRole('button', { name: 'Helpful', exact: true }).first().click();
    await widget.conversation.getByRole('button', { name: 'Not helpful' }).last().click();
    await widget.conversation.getByRole('textbox', { name: 'What was missing or wrong? (optional)' }).fill('I need the address for returns');
    await widget.conversation.getByRole('button', { name: 'Send feedback' }).click();
    await expect(widget.conversation.getByRole('status').filter({ hasText: 'Thanks for your feedback!' }).last()).toBeVisible();
    await expect.poll(async () => (await (await api.get(`/v1/feedback/${chatbot.id}`)).json()).totals, { timeout: 10_000 }).toEqual({ up: 1, down: 1 });
    const listing = await (await api.get(`/v1/feedback/${chatbot.id}`)).json();
    expect(listing.feedback[0]).toMatchObject({ messageIndex: 3, rating: 'down', comment: 'I need the address for returns' });
    expect(listing.feedback[0].answer).toContain('30 days');
  });

  test('after a refusal the lead form is offered inline, and the lead carries the conversation and page', async ({
    page, api, createChatbot, openHostPage, widget,
  }) => {
    const restrict = 'Sorry, I can only help with questions about our shop.';
    const chatbot = await createChatbot({ restrictAnswersToResourcesContentResponse: restrict });
    await openHostPage('shop.acme.test', { chatbotId: chatbot.id });
    await widget.open();
    await widget.ask('What is the boiling point of tungsten?');
    await expect(widget.conversation).toContainText(restrict);
    const offer = widget.window.getByRole('group', { name: 'Would you like someone from our team to get back to you?' });
    await expect(offer).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${screenshots}/widget-lead-offer.png` });
    await offer.getByLabel('Email').fill('ada@example.com');
    await offer.getByRole('button', { name: 'Send' }).click();
    await expect(offer.getByRole('status')).toContainText('Thank you');
    const conversations = await (await api.get(`/v1/conversation/${chatbot.id}`)).json();
    const leads = await (await api.get(`/v1/lead/${chatbot.id}`)).json();
    expect(leads.leads).toEqual([expect.objectContaining({
      email: 'ada@example.com', conversationId: conversations.conversations[0].id, pageUrl: expect.stringContaining('shop.acme.test'),
    })]);
  });
});
