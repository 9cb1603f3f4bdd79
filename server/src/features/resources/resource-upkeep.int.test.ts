import { ErrorBodySchema, PassageListingSchema, ResourceSchema } from '@parley/shared';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../storage/create-file-store.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { startFakeServer, type FakeServer } from './ingestion/fixtures/fake-servers.js';
import { makePdf } from './ingestion/fixtures/make-pdf.js';
import { INGEST_RESOURCE_JOB } from './ingestion/ingestion-worker.js';
import { runIngestion, type IngestionContext } from './ingestion/run-ingestion.js';
import { ResourcesRepository } from './resources.repository.js';
import { createResource } from './resources.test-support.js';

// The job worker is never started here: each test runs the queued ingestion itself, so what chat
// answers between an edit and its re-index is observed without racing a background worker.
let ctx: TestContext;
let site: FakeServer;
let ingestion: IngestionContext;
let pageText = 'Our opening hours are from nine to five.';

beforeAll(async () => {
  site = await startFakeServer(() => ({ body: `<html><head><title>Hours</title></head><body><main><p>${pageText}</p></main></body></html>` }));
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  const { db } = ctx.database;
  ingestion = {
    db, jobs: ctx.services.jobs, repository: new ResourcesRepository(db), logger: pino({ level: 'silent' }),
    files: createFileStore(ctx.config), allowPrivateNetworks: true, userAgent: 'ParleyTest', parserLimits: ctx.config.parserLimits,
  };
});
afterAll(async () => {
  await ctx?.close();
  await site?.close();
});

/** Runs every queued ingestion job, as a worker would. */
async function runQueuedIngestion(): Promise<number> {
  let count = 0;
  for (let job = await ctx.services.jobs.claim([INGEST_RESOURCE_JOB], 'test', 60_000); job; job = await ctx.services.jobs.claim([INGEST_RESOURCE_JOB], 'test', 60_000)) {
    await runIngestion(ingestion, job as Parameters<typeof runIngestion>[1], new AbortController().signal);
    count++;
  }
  return count;
}

async function ask(resourceId: string, question: string): Promise<string> {
  const res = await ctx.api.post('/v1/resource/chat').send({ resourceId, conversation: [{ text: question, fromUser: true }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.text as string;
}

const status = async (id: string) => ResourceSchema.parse((await ctx.api.get(`/v1/resource/${id}`).expect(200)).body).aiProcessingStatus;

describe('PUT /v1/resource/text/{id}', () => {
  it('re-indexes new content under the same id, answering from the old text until the new is in', async () => {
    const created = await createResource(ctx.api, 'text', { name: 'Hours', content: 'The bakery opens at 7am every weekday.', tags: ['a'] });
    await runQueuedIngestion();
    expect(await ask(created.id, 'When does the bakery open?')).toContain('7am');
    const chatbot = (await ctx.api.post('/v1/chatbot').send({ name: 'Bakery', resourceIds: [created.id] }).expect(201)).body;

    const updated = await ctx.api.put(`/v1/resource/text/${created.id}`).send({ content: 'The bakery opens at 6am every weekday.' }).expect(200);
    expect(ResourceSchema.parse(updated.body)).toMatchObject({ id: created.id, fileName: 'Hours', tags: ['a'], type: 'TEXT' });
    expect(await ask(created.id, 'When does the bakery open?')).toContain('7am');
    const text = await ctx.api.get(`/v1/resource/text/${created.id}`).expect(200);
    expect(text.body).toEqual({ id: created.id, name: 'Hours', content: 'The bakery opens at 6am every weekday.', tags: ['a'] });

    expect(await runQueuedIngestion()).toBe(1);
    expect(await status(created.id)).toBe('DONE');
    const answer = await ask(created.id, 'When does the bakery open?');
    expect(answer).toContain('6am');
    expect(answer).not.toContain('7am');
    expect((await ctx.api.get(`/v1/chatbot/${chatbot.id}`).expect(200)).body.resources).toEqual([created.id]);
  });

  it('renames and re-tags without re-indexing', async () => {
    const created = await createResource(ctx.api, 'text', { name: 'Old name', content: 'Same text.' });
    await runQueuedIngestion();
    const res = await ctx.api.put(`/v1/resource/text/${created.id}`).send({ name: 'New name', tags: ['x', 'y'], content: 'Same text.' }).expect(200);
    expect(res.body).toMatchObject({ fileName: 'New name', tags: ['x', 'y'], aiProcessingStatus: 'DONE' });
    expect(await runQueuedIngestion()).toBe(0);
    expect((await ctx.api.get(`/v1/resource/${created.id}`).expect(200)).body.fileName).toBe('New name');
  });

  it('answers 400 for bad bodies and other types, 404 for absent and foreign ids', async () => {
    const text = await createResource(ctx.api, 'text', { name: 'T', content: 'x' });
    const cases: [string, unknown, string][] = [
      [text.id, {}, 'body must contain name, content or tags'],
      [text.id, { content: '' }, 'content must not be empty'],
      [text.id, { colour: 'red' }, 'property colour should not exist'],
      ['not-an-id', { name: 'x' }, 'id must be a 24-character lower-case hex id'],
    ];
    for (const [id, body, message] of cases) {
      const res = await ctx.api.put(`/v1/resource/text/${id}`).send(body as object).expect(400);
      expect(ErrorBodySchema.parse(res.body).message).toContain(message);
    }
    const website = await createResource(ctx.api, 'website', { url: `${site.url}/hours` });
    const wrongType = await ctx.api.put(`/v1/resource/text/${website.id}`).send({ name: 'x' }).expect(400);
    expect(wrongType.body.message).toEqual([`resource ${website.id} is a WEB resource; only TEXT resources can be edited`]);
    await ctx.api.put(`/v1/resource/text/${ABSENT_ID}`).send({ name: 'x' }).expect(404);
    await ctx.api.get(`/v1/resource/text/${ABSENT_ID}`).expect(404);
    await ctx.api.get(`/v1/resource/text/${website.id}`).expect(400);
    const other = await ctx.newOrganisation();
    await other.api.put(`/v1/resource/text/${text.id}`).send({ name: 'x' }).expect(404);
    await runQueuedIngestion();
  });

  it('answers 402 when the new text would exceed the plan\'s storage', async () => {
    const limited = await ctx.newOrganisation({ maxStorageBytes: 100 });
    const created = (await limited.api.post('/v1/resource/text').send({ name: 'T', content: 'short' }).expect(201)).body;
    await limited.api.put(`/v1/resource/text/${created.id}`).send({ content: 'x'.repeat(101) }).expect(402);
    await limited.api.put(`/v1/resource/text/${created.id}`).send({ content: 'x'.repeat(100) }).expect(200);
    await runQueuedIngestion();
  });
});

describe('POST /v1/resource/{id}/sync', () => {
  it('queues a re-crawl (202), refuses a second while one is pending (409), and the new page replaces the old', async () => {
    pageText = 'Our opening hours are from nine to five.';
    const website = await createResource(ctx.api, 'website', { url: `${site.url}/hours`, syncFrequency: 'ONE_DAY' });
    await runQueuedIngestion();
    expect(await status(website.id)).toBe('DONE');
    pageText = 'Our opening hours are from eight to four.';
    const accepted = await ctx.api.post(`/v1/resource/${website.id}/sync`).expect(202);
    expect(ResourceSchema.parse(accepted.body).id).toBe(website.id);
    const busy = await ctx.api.post(`/v1/resource/${website.id}/sync`).expect(409);
    expect(busy.body.message).toEqual([`a sync of resource ${website.id} is already queued or running`]);
    expect(await ask(website.id, 'What are the opening hours?')).toContain('nine to five');
    expect(await runQueuedIngestion()).toBe(1);
    expect(await ask(website.id, 'What are the opening hours?')).toContain('eight to four');
    const synced = ResourceSchema.parse((await ctx.api.get(`/v1/resource/${website.id}`).expect(200)).body);
    expect(synced.lastSync).toBeGreaterThan(0);
    const row = await ctx.database.db('resources').where({ id: website.id }).first('next_sync_at', 'last_sync');
    expect(Number(row.next_sync_at) - Number(row.last_sync)).toBe(86_400_000);
  });

  it('answers 400 for types that do not sync and 404 for absent or foreign ids', async () => {
    const text = await createResource(ctx.api, 'text', { name: 'T', content: 'x' });
    const res = await ctx.api.post(`/v1/resource/${text.id}/sync`).expect(400);
    expect(res.body.message).toEqual([`resource ${text.id} is a TEXT resource; only WEB and HOSTED_VIDEO resources sync`]);
    await ctx.api.post(`/v1/resource/${ABSENT_ID}/sync`).expect(404);
    await ctx.api.post('/v1/resource/xyz/sync').expect(400);
    await (await ctx.newOrganisation()).api.post(`/v1/resource/${text.id}/sync`).expect(404);
    await runQueuedIngestion();
  });
});

describe('GET /v1/resource/{id}/passages', () => {
  it('pages through the passages in document order with their page numbers', async () => {
    const pdf = makePdf(['First page about apples.', 'Second page about bananas.', 'Third page about cherries.']);
    const upload = await ctx.api.post('/v1/resource/file').attach('file', pdf, 'fruit.pdf').expect(201);
    await runQueuedIngestion();
    const first = PassageListingSchema.parse((await ctx.api.get(`/v1/resource/${upload.body.id}/passages?limit=2`).expect(200)).body);
    expect(first.passages.map((p) => [p.page, p.text])).toEqual([[1, 'First page about apples.'], [2, 'Second page about bananas.']]);
    expect(first.nextCursor).toBeDefined();
    const second = PassageListingSchema.parse((await ctx.api.get(`/v1/resource/${upload.body.id}/passages?limit=2&cursor=${first.nextCursor}`).expect(200)).body);
    expect(second).toEqual({ passages: [{ page: 3, text: 'Third page about cherries.' }] });
    const all = PassageListingSchema.parse((await ctx.api.get(`/v1/resource/${upload.body.id}/passages`).expect(200)).body);
    expect(all.passages).toHaveLength(3);
  });

  it('shows the page URL and title of a website\'s passages', async () => {
    pageText = 'Opening hours are posted on the door.';
    const website = await createResource(ctx.api, 'website', { url: `${site.url}/door` });
    await runQueuedIngestion();
    const listing = PassageListingSchema.parse((await ctx.api.get(`/v1/resource/${website.id}/passages`).expect(200)).body);
    expect(listing.passages).toEqual([{ text: expect.stringContaining('posted on the door'), url: `${site.url}/door`, section: 'Hours' }]);
  });

  it('answers 400 for bad paging and 404 for absent or foreign ids', async () => {
    const text = await createResource(ctx.api, 'text', { name: 'T', content: 'x' });
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'cursor=-1', 'page=2']) {
      await ctx.api.get(`/v1/resource/${text.id}/passages?${query}`).expect(400);
    }
    await ctx.api.get(`/v1/resource/${ABSENT_ID}/passages`).expect(404);
    await (await ctx.newOrganisation()).api.get(`/v1/resource/${text.id}/passages`).expect(404);
    await runQueuedIngestion();
  });
});
