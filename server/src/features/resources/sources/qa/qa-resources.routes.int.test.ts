import { QaPairSchema, QaResourceContentSchema, ResourceSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/test-app.js';
import { ABSENT_ID } from '../../../../test/factories.js';
import { createResource, waitForProcessing } from '../../resources.test-support.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } }); });
afterAll(async () => { await ctx?.close(); });

const HOURS = { questions: ['When do you open?', 'What are your opening hours?'], answer: 'From 9am to 5pm, Monday to Friday.' };
const RETURNS = { questions: ['Can I send it back?'], answer: 'Yes, within 30 days.' };
const content = async (id: string) => QaResourceContentSchema.parse((await ctx.api.get(`/v1/resource/qa/${id}`).expect(200)).body);

describe('POST /v1/resource/qa', () => {
  it('creates a QA resource NOT_STARTED, read back like any resource, its pairs each with an id', async () => {
    const created = await createResource(ctx.api, 'qa', { name: 'Shop answers', tags: ['faq'], pairs: [HOURS, RETURNS] });
    expect(created).toMatchObject({ type: 'QA', fileName: 'Shop answers', tags: ['faq'], aiProcessingStatus: 'NOT_STARTED', organisation: ctx.org.organisationId });
    expect(ResourceSchema.parse((await ctx.api.get(`/v1/resource/${created.id}`).expect(200)).body)).toEqual(created);
    expect((await ctx.api.get('/v1/resource/all').expect(200)).body.map((resource: { id: string }) => resource.id)).toContain(created.id);
    const read = await content(created.id);
    expect(read).toMatchObject({ id: created.id, name: 'Shop answers', tags: ['faq'], pairs: [HOURS, RETURNS] });
    expect(new Set(read.pairs.map((pair) => pair.id)).size).toBe(2);
    expect(await content(created.id)).toEqual(read);
  });

  it.each([
    ['no pairs', { name: 'x' }, 'pairs'],
    ['an empty list of pairs', { name: 'x', pairs: [] }, 'pairs must contain at least 1 pair'],
    ['a pair without questions', { name: 'x', pairs: [{ questions: [], answer: 'a' }] }, 'pairs[0].questions must contain at least 1 question'],
    ['21 questions', { name: 'x', pairs: [{ questions: Array.from({ length: 21 }, (_, i) => `q${i}?`), answer: 'a' }] }, 'pairs[0].questions must contain at most 20 questions'],
    ['a blank question', { name: 'x', pairs: [{ questions: ['  '], answer: 'a' }] }, 'pairs[0].questions[0] must not be empty'],
    ['a 5,001-character answer', { name: 'x', pairs: [{ questions: ['q?'], answer: 'a'.repeat(5001) }] }, 'pairs[0].answer must be at most 5000 characters'],
    ['a 501-character question', { name: 'x', pairs: [{ questions: ['q'.repeat(501)], answer: 'a' }] }, 'pairs[0].questions[0] must be at most 500 characters'],
    ['1,001 pairs', { name: 'x', pairs: Array.from({ length: 1001 }, () => RETURNS) }, 'pairs must contain at most 1000 pairs'],
    ['a pair id on create', { name: 'x', pairs: [{ ...RETURNS, id: ABSENT_ID }] }, 'property pairs[0].id should not exist'],
    ['no name', { pairs: [RETURNS] }, 'name'],
  ])('answers 400 in the contract\'s shape for %s', async (_case, body, message) => {
    const res = await ctx.api.post('/v1/resource/qa').send(body).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect((res.body.message as string[]).some((text) => text.includes(message)), JSON.stringify(res.body.message)).toBe(true);
  });
});

describe('editing the pairs of a QA resource', () => {
  it('replaces the pairs, keeping the ids sent back, and queues the resource again', async () => {
    const created = await createResource(ctx.api, 'qa', { name: 'Answers', pairs: [HOURS, RETURNS] });
    const [hours] = (await content(created.id)).pairs;
    const changed = { id: hours!.id, questions: ['When are you open?'], answer: 'From 8am.' };
    const res = await ctx.api.put(`/v1/resource/qa/${created.id}`).send({ name: 'Renamed', tags: ['t'], pairs: [changed, RETURNS] }).expect(200);
    expect(ResourceSchema.parse(res.body)).toMatchObject({ id: created.id, fileName: 'Renamed', tags: ['t'], aiProcessingStatus: 'NOT_STARTED' });
    const read = await content(created.id);
    expect(read.pairs[0]).toEqual(changed);
    expect(read.pairs[1]).toMatchObject(RETURNS);
    expect(read.pairs.map((pair) => pair.id)).not.toContain(undefined);
    const unknown = await ctx.api.put(`/v1/resource/qa/${created.id}`).send({ pairs: [{ ...RETURNS, id: ABSENT_ID }] }).expect(400);
    expect(unknown.body.message).toEqual(['pairs[0].id must be the id of one of the resource\'s pairs, given once']);
    await ctx.api.put(`/v1/resource/qa/${created.id}`).send({}).expect(400);
  });

  it('adds one pair (201 with its id) and deletes one pair (200 with it, then 404)', async () => {
    const created = await createResource(ctx.api, 'qa', { name: 'Answers', pairs: [HOURS] });
    const added = await ctx.api.post(`/v1/resource/qa/${created.id}/pairs`).send(RETURNS).expect(201);
    const pair = QaPairSchema.parse(added.body);
    expect(pair).toMatchObject(RETURNS);
    expect((await content(created.id)).pairs.map((p) => p.id).at(-1)).toBe(pair.id);
    expect((await ctx.api.delete(`/v1/resource/qa/${created.id}/pairs/${pair.id}`).expect(200)).body).toEqual(pair);
    await ctx.api.delete(`/v1/resource/qa/${created.id}/pairs/${pair.id}`).expect(404);
    await ctx.api.delete(`/v1/resource/qa/${created.id}/pairs/not-an-id`).expect(400);
    expect((await content(created.id)).pairs).toHaveLength(1);
    await ctx.api.post(`/v1/resource/qa/${created.id}/pairs`).send({ questions: ['q?'] }).expect(400);
  });

  it('answers 404 for another organisation\'s resource or an absent one, and 400 for another type', async () => {
    const created = await createResource(ctx.api, 'qa', { name: 'Answers', pairs: [HOURS] });
    const pairId = (await content(created.id)).pairs[0]!.id;
    const other = await ctx.newOrganisation();
    for (const id of [created.id, ABSENT_ID]) {
      await other.api.get(`/v1/resource/qa/${id}`).expect(404);
      await other.api.put(`/v1/resource/qa/${id}`).send({ name: 'n' }).expect(404);
      await other.api.post(`/v1/resource/qa/${id}/pairs`).send(RETURNS).expect(404);
      await other.api.delete(`/v1/resource/qa/${id}/pairs/${pairId}`).expect(404);
    }
    expect((await content(created.id)).pairs).toHaveLength(1);
    const text = await createResource(ctx.api, 'text', { name: 'Notes', content: 'Some text.' });
    const wrongType = await ctx.api.get(`/v1/resource/qa/${text.id}`).expect(400);
    expect(wrongType.body.message).toEqual([`resource ${text.id} is a TEXT resource; only QA resources have saved answers`]);
    await ctx.api.get(`/v1/resource/text/${created.id}`).expect(400);
  });

  it('deletes the pairs with their resource', async () => {
    const created = await createResource(ctx.api, 'qa', { name: 'Answers', pairs: [HOURS, RETURNS] });
    await ctx.api.delete(`/v1/resource/${created.id}`).expect(200);
    expect(Number((await ctx.database.db('resource_qa_pairs').where({ resource_id: created.id }).count('* as count').first())?.count)).toBe(0);
  });
});

describe('indexing a QA resource', () => {
  it('indexes each pair as a passage under its questions, DONE, and re-indexes after a change', async () => {
    ctx.startJobs();
    const created = await createResource(ctx.api, 'qa', { name: 'Answers', pairs: [HOURS] });
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    const passages = (await ctx.api.get(`/v1/resource/${created.id}/passages`).expect(200)).body.passages as { text: string }[];
    expect(passages).toHaveLength(1);
    expect(passages[0]!.text).toContain('When do you open? / What are your opening hours?');
    expect(passages[0]!.text).toContain(HOURS.answer);
    await ctx.api.post(`/v1/resource/qa/${created.id}/pairs`).send(RETURNS).expect(201);
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    expect((await ctx.api.get(`/v1/resource/${created.id}/passages`).expect(200)).body.passages).toHaveLength(2);
  });
});

describe('plan limits', () => {
  it('counts a QA resource against the resource count and its pairs against the stored bytes', async () => {
    const limited = await ctx.newOrganisation({ maxResources: 1, maxStorageBytes: 200 });
    const created = await limited.api.post('/v1/resource/qa').send({ name: 'A', pairs: [RETURNS] }).expect(201);
    expect((await limited.api.post('/v1/resource/qa').send({ name: 'B', pairs: [RETURNS] })).status).toBe(402);
    const big = { questions: ['Long?'], answer: 'x'.repeat(300) };
    expect((await limited.api.post(`/v1/resource/qa/${created.body.id}/pairs`).send(big)).status).toBe(402);
    expect((await limited.api.put(`/v1/resource/qa/${created.body.id}`).send({ pairs: [big] })).status).toBe(402);
    await limited.api.post(`/v1/resource/qa/${created.body.id}/pairs`).send(HOURS).expect(201);
  });
});
