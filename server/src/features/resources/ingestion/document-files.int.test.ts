import { ResourceSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { waitForProcessing } from '../resources.test-support.js';
import { docxZipBomb, makeDocx, makePptx } from './fixtures/make-documents.js';

// Issue 40, item 1: the files owners keep (Word, slides, Markdown, text, HTML, CSV) upload by
// content, keep their structure, answer questions; hostile ones end FAILED with a reason.
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000', PARSE_TIMEOUT_MS: '15000', PARSE_MEMORY_MB: '256' } });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
});

/** Uploads under a name that says nothing of the type (types are sniffed from content). */
async function upload(file: Buffer, name = 'upload.bin') {
  const res = await ctx.api.post('/v1/resource/file').attach('file', file, { filename: name, contentType: 'application/octet-stream' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ResourceSchema.parse(res.body);
}

async function passagesOf(id: string): Promise<{ text: string; section?: string; page?: number }[]> {
  const res = await ctx.api.get(`/v1/resource/${id}/passages`).query({ limit: 200 });
  expect(res.status).toBe(200);
  return res.body.passages;
}

/** The heading paths the chunks were cut under (their provenance). */
async function sectionsOf(id: string): Promise<string[]> {
  const rows = await ctx.database.db('resource_chunks').where({ resource_id: id }).orderBy('ordinal').select('provenance');
  return rows.map((row: { provenance: { section?: string } }) => row.provenance.section ?? '');
}

async function ask(resourceId: string, question: string): Promise<string> {
  const res = await ctx.api.post('/v1/resource/chat').send({ resourceId, conversation: [{ text: question, fromUser: true }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.text as string;
}

describe('documents by content', () => {
  it('a Word document keeps its headings, list and table, and answers from them', async () => {
    const docx = await makeDocx([
      { heading: 1, text: 'Crumb & Co. staff handbook' },
      { paragraph: 'Crumb & Co. is a family bakery on Mill Street. We bake every morning from five o\'clock.' },
      { heading: 2, text: 'Bread prices' },
      { table: [['Bread', 'Price', 'Weight'], ['Sourdough loaf', '£4.50', '800 g'], ['Rye bread', '£3.90', '600 g'], ['Baguette', '£2.20', '250 g']] },
      { heading: 2, text: 'Special diets' },
      { bullet: 'Gluten-free loaves are baked on Fridays.' },
      { bullet: 'Vegan croissants are available every day.' },
    ]);
    const created = await upload(docx, 'handbook');
    expect(created).toMatchObject({ type: 'DOCUMENT', documentFormat: 'DOCX', fileName: 'handbook', fileSize: docx.length });
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    const passages = await passagesOf(created.id);
    const text = passages.map((passage) => passage.text).join('\n');
    expect(text).toContain('# Crumb & Co. staff handbook');
    expect(text).toMatch(/Bread: Rye bread; Price: £3\.90; Weight: 600 g/);
    expect(text).toContain('- Gluten-free loaves are baked on Fridays.');
    expect(text).toContain('## Bread prices');
    expect((await sectionsOf(created.id))[0]).toBe('Crumb & Co. staff handbook');
    expect(await ask(created.id, 'How much is the rye bread?')).toContain('£3.90');
  });

  it('PowerPoint slides: one section per slide, its number kept, titles as headings', async () => {
    const pptx = await makePptx([
      { title: 'Summer opening hours', bullets: ['Open Monday to Saturday from 7 am to 6 pm.', 'Closed on Sundays in August.'] },
      { title: 'Cake orders', bullets: ['Order birthday cakes three days ahead.'], table: [['Cake', 'Serves'], ['Chocolate torte', '12 people']] },
    ]);
    const created = await upload(pptx, 'slides');
    expect(created).toMatchObject({ type: 'DOCUMENT', documentFormat: 'PPTX' });
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    const passages = await passagesOf(created.id);
    expect(passages.map((passage) => passage.page)).toEqual([1, 2]);
    expect(passages[1]!.text).toContain('Cake: Chocolate torte; Serves: 12 people');
    expect(await ask(created.id, 'How far ahead should I order a birthday cake?')).toMatch(/three days/);
  });

  it('a CSV price list: each row one passage with its header names', async () => {
    const csv = 'Product,Price,Allergens\r\nSourdough loaf,£4.50,gluten\r\n"Almond croissant, large",£2.60,"gluten, nuts, milk"\r\nCarrot cake slice,£3.20,"gluten, eggs"\r\n';
    const created = await upload(Buffer.from(csv), 'prices');
    expect(created.documentFormat).toBe('CSV');
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    expect((await passagesOf(created.id)).map((passage) => passage.text)).toEqual([
      'Product: Sourdough loaf; Price: £4.50; Allergens: gluten',
      'Product: Almond croissant, large; Price: £2.60; Allergens: gluten, nuts, milk',
      'Product: Carrot cake slice; Price: £3.20; Allergens: gluten, eggs',
    ]);
    expect(await ask(created.id, 'What does the carrot cake slice cost?')).toContain('£3.20');
  });

  it('a Markdown FAQ keeps its headings as sections', async () => {
    const faq = '# Frequently asked questions\n\n## Do you deliver?\n\nYes. We deliver within five miles of the shop for a fee of £3.\n\n'
      + '## Can I pay by card?\n\nWe take all major cards and contactless payments.\n\n## Where do you bake?\n\n- In our kitchen behind the shop\n- Never in a factory\n';
    const created = await upload(Buffer.from(faq), 'faq');
    expect(created.documentFormat).toBe('MARKDOWN');
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    const passages = await passagesOf(created.id);
    expect(passages[0]!.text).toContain('## Do you deliver?');
    expect((await sectionsOf(created.id))[0]).toBe('Frequently asked questions › Do you deliver?');
    expect(await ask(created.id, 'Do you deliver?')).toMatch(/five miles/);
  });

  it('plain text and HTML', async () => {
    const text = await upload(Buffer.from('Our shop is closed on public holidays.\nWe reopen the day after at seven.\n'), 'notes');
    const html = await upload(Buffer.from('<!DOCTYPE html><html><head><title>Allergens</title></head><body><nav>Home | Shop</nav><main>'
      + '<h1>Allergen guide</h1><p>Every loaf lists its allergens on the label.</p><ul><li>Nuts are used in the almond range.</li></ul>'
      + '<table><tr><th>Item</th><th>Contains</th></tr><tr><td>Brioche</td><td>eggs, milk</td></tr></table></main></body></html>'), 'guide');
    expect([text.documentFormat, html.documentFormat]).toEqual(['PLAIN_TEXT', 'HTML']);
    expect((await waitForProcessing(ctx.api, text.id)).aiProcessingStatus).toBe('DONE');
    expect((await waitForProcessing(ctx.api, html.id)).aiProcessingStatus).toBe('DONE');
    expect(await ask(text.id, 'Are you open on public holidays?')).toMatch(/closed on public holidays/);
    const page = (await passagesOf(html.id)).map((passage) => passage.text).join('\n');
    expect(page).toContain('# Allergen guide');
    expect(page).toContain('Item: Brioche; Contains: eggs, milk');
    expect(page).not.toContain('Home | Shop');
  });

  it('refuses with 400 what is neither (an image, a zip of something else, text in another encoding)', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const latin1 = Buffer.from('Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, \u00e0 la carte', 'latin1');
    for (const file of [png, latin1, Buffer.from('PK\u0003\u0004 not really a zip')]) {
      const res = await ctx.api.post('/v1/resource/file').attach('file', file, 'menu.docx');
      expect(res.status).toBe(400);
      expect(res.body.message.join(' ')).toMatch(/PDF, an MP4 video, a Word document/);
    }
  });
});

describe('hostile documents end FAILED with a reason', () => {
  it('a DOCX zip bomb', async () => {
    const created = await upload(await docxZipBomb(400), 'bomb');
    expect(created.documentFormat).toBe('DOCX');
    const done = await waitForProcessing(ctx.api, created.id, 60_000);
    expect(done.aiProcessingStatus).toBe('FAILED');
    expect(done.failureReason).toMatch(/zip bomb/);
  }, 90_000);

  it('a CSV of more rows than are read', async () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => `Item ${i},£${i}.00`).join('\n');
    const done = await waitForProcessing(ctx.api, (await upload(Buffer.from(`Item,Price\n${rows}\n`), 'huge')).id, 60_000);
    expect(done.aiProcessingStatus).toBe('FAILED');
    expect(done.failureReason).toMatch(/CSV is read up to 20,000 rows/);
  }, 90_000);

  it('deeply nested HTML', async () => {
    const deep = `<!DOCTYPE html><html><body>${'<div>'.repeat(50_000)}Opening hours${'</div>'.repeat(50_000)}</body></html>`;
    const done = await waitForProcessing(ctx.api, (await upload(Buffer.from(deep), 'deep')).id, 60_000);
    expect(done.aiProcessingStatus).toBe('FAILED');
    expect(done.failureReason).toMatch(/nests elements \d+ deep/);
  }, 90_000);

  it('an empty-looking document is FAILED_NO_TEXT_FOUND', async () => {
    const done = await waitForProcessing(ctx.api, (await upload(await makeDocx([{ paragraph: '   ' }]), 'blank')).id);
    expect(done.aiProcessingStatus).toBe('FAILED_NO_TEXT_FOUND');
  });
});
