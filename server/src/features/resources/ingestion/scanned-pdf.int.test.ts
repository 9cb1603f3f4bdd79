import { ChatResponseSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { waitForProcessing } from '../resources.test-support.js';
import { makePdf } from './fixtures/make-pdf.js';

// Issue 13, item 5: pages without a text layer are read by OCR in the parser child (tesseract.js
// with its English data from npm, nothing fetched), and their text keeps its page number.
const OPENING_HOURS = 'Visiting hours. The lighthouse tower is open to visitors from ten in the morning until four in the afternoon.';
const KEEPER = 'Lighthouse log. The keeper trims the lamp wick every evening at dusk and winds the clockwork.';
const TEXT_PAGE = 'Page one has a real text layer: the tea is grown in Darjeeling.';
const OCR_WAIT_MS = 90_000;

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
});
afterAll(async () => { await ctx?.close(); });

async function upload(pdf: Buffer, name: string): Promise<string> {
  const res = await ctx.api.post('/v1/resource/file').attach('file', pdf, { filename: name, contentType: 'application/pdf' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function pagesOf(resourceId: string): Promise<{ page: number; content: string }[]> {
  const rows = await ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('ordinal').select('content', 'provenance');
  return rows.map((row: { content: string; provenance: { page: number } }) => ({ page: row.provenance.page, content: row.content }));
}

const normalised = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Polls a resource until it settles, collecting the `processingProgress` values it showed meanwhile. */
async function progressUntilSettled(id: string): Promise<{ status: string; progress: number[] }> {
  const progress: number[] = [];
  for (const deadline = Date.now() + OCR_WAIT_MS; Date.now() < deadline;) {
    const { body } = await ctx.api.get(`/v1/resource/${id}`);
    if (typeof body.processingProgress === 'number' && progress.at(-1) !== body.processingProgress) progress.push(body.processingProgress);
    if (!['NOT_STARTED', 'IN_PROGRESS'].includes(body.aiProcessingStatus)) return { status: body.aiProcessingStatus, progress };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`resource ${id} did not settle`);
}

describe('scanned PDFs', () => {
  it('reads an image-only PDF by OCR, page by page, and a chatbot answers from it citing the page', async () => {
    const id = await upload(makePdf([{ scan: KEEPER }, { scan: OPENING_HOURS }]), 'lighthouse-scan.pdf');
    const { status, progress } = await progressUntilSettled(id);
    expect(status).toBe('DONE');
    // Each page takes seconds: the share read shows while the job runs (0 before the first page, 0.5 after it).
    expect(progress).toContain(0.5);
    expect(progress).toEqual([...progress].sort());
    expect((await ctx.api.get(`/v1/resource/${id}`)).body).not.toHaveProperty('processingProgress');
    const pages = await pagesOf(id);
    expect(pages.map(({ page }) => page)).toEqual([1, 2]);
    // A clean 150-DPI scan reads back exactly, up to line breaks.
    expect(pages.map(({ content }) => normalised(content))).toEqual([KEEPER, OPENING_HOURS]);

    const chatbot = await ctx.api.post('/v1/chatbot').send({ name: 'Lighthouse', resourceIds: [id], restrictAnswersToResourcesContentResponse: 'I only know the lighthouse.' });
    expect(chatbot.status, JSON.stringify(chatbot.body)).toBe(201);
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId: chatbot.body.id, conversation: [{ text: 'When is the lighthouse tower open to visitors?', fromUser: true }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const answer = ChatResponseSchema.parse(res.body);
    expect(answer.text).toContain('from ten in the morning until four in the afternoon');
    expect(answer.sources).toEqual([{ resourceId: id, title: 'lighthouse-scan.pdf', page: 2, snippet: expect.stringContaining('open to visitors') }]);
  }, OCR_WAIT_MS + 30_000);

  it('keeps the text page of a mixed PDF exactly as the text layer reads it, and OCRs the scanned page', async () => {
    const mixed = await upload(makePdf([TEXT_PAGE, { scan: OPENING_HOURS }]), 'mixed.pdf');
    const textOnly = await upload(makePdf([TEXT_PAGE]), 'text-only.pdf');
    for (const id of [mixed, textOnly]) expect((await waitForProcessing(ctx.api, id, OCR_WAIT_MS)).aiProcessingStatus).toBe('DONE');
    const [textPage, scannedPage, ...rest] = await pagesOf(mixed);
    expect(rest).toEqual([]);
    expect(textPage).toEqual((await pagesOf(textOnly))[0]);
    expect(textPage!.content).toBe(TEXT_PAGE);
    expect(scannedPage!.page).toBe(2);
    expect(normalised(scannedPage!.content)).toBe(OPENING_HOURS);
  }, OCR_WAIT_MS + 30_000);

  it('ends FAILED_NO_TEXT_FOUND for a blank scan, once OCR has found nothing either', async () => {
    const id = await upload(makePdf([{ scan: '' }, { scan: '' }]), 'blank-scan.pdf');
    const resource = await waitForProcessing(ctx.api, id, OCR_WAIT_MS);
    expect(resource).toMatchObject({ aiProcessingStatus: 'FAILED_NO_TEXT_FOUND', failureReason: 'the PDF has no text layer and OCR found no text on 2 pages' });
    expect(await pagesOf(id)).toEqual([]);
  }, OCR_WAIT_MS + 30_000);
});
