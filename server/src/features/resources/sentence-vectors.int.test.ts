import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerPrompt } from '../../providers/llm/answer-model.js';
import { LocalAnswerModel } from '../../providers/llm/local/local-answer-model.js';
import { WorkerSentenceEncoder } from '../../providers/llm/local/sentence-encoder.js';
import { meaningTexts, unpackSentenceVectors } from '../../providers/llm/local/sentence-vectors.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { toPassages } from '../chat/build-prompt.js';
import { queueMissingSentenceVectors, readSentenceVectors, STORE_SENTENCE_VECTORS_JOB } from './ingestion/sentence-vectors-job.js';
import { createResource, waitForProcessing } from './resources.test-support.js';

/**
 * The local engine's sentence vectors are stored after ingestion (a job), so an instance that has
 * never met a passage answers from it without encoding its sentences: after a restart, or on
 * another instance of a cluster.
 */
let ctx: TestContext;
let faqId: string;

const FAQ = [
  '# Willow & Wick FAQ',
  '## Delivery',
  'We ship to every EU country within 5 working days. Express delivery costs £6.95 and arrives the next working day.',
  '## Returns',
  'Unused candles can be returned within 30 days for a full refund. We pay the return postage.',
  '## Care',
  'Trim the wick to 5 mm before every burn. Never leave a burning candle unattended.',
].join('\n');

const chunksOf = (resourceId: string) => ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('id').select('id', 'content');
const storedOf = (resourceId: string) => ctx.database.db('chunk_sentence_vectors as v').join('resource_chunks as c', 'c.id', 'v.chunk_id')
  .where('c.resource_id', resourceId).select('v.chunk_id', 'v.organisation_id', 'v.vectors');

/** Waits until every chunk of the resource has its stored vectors. */
async function waitForVectors(resourceId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [chunks, stored] = await Promise.all([chunksOf(resourceId), storedOf(resourceId)]);
    if (chunks.length > 0 && stored.length === chunks.length) return;
    if (Date.now() > deadline) throw new Error(`${stored.length} of ${chunks.length} chunks have sentence vectors after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOCAL_SENTENCE_ENCODER: 'true', RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  faqId = (await createResource(ctx.api, 'text', { name: 'Shop FAQ', content: FAQ })).id;
  const ingested = await waitForProcessing(ctx.api, faqId);
  // With the reason, so a failure shows it.
  expect([ingested.aiProcessingStatus, ingested.failureReason]).toEqual(['DONE', undefined]);
  await waitForVectors(faqId);
}, 90_000);
afterAll(async () => { await ctx?.close(); });

describe('stored sentence vectors', () => {
  it('are stored after ingestion for every sentence and heading of every chunk, under the organisation', async () => {
    const chunks = await chunksOf(faqId);
    const stored = new Map((await storedOf(faqId)).map((row) => [Number(row.chunk_id), row]));
    for (const chunk of chunks) {
      const row = stored.get(Number(chunk.id))!;
      expect(row.organisation_id).toBe(ctx.org.organisationId);
      const texts = meaningTexts(chunk.content);
      expect(texts.length).toBeGreaterThan(0);
      expect([...unpackSentenceVectors(Buffer.from(row.vectors), texts).keys()]).toEqual(texts);
    }
  });

  it('let an instance that never met the passages answer without encoding their sentences, with the same answer', async () => {
    const question = 'how far should I trim the wick?';
    const chunks = await ctx.services.resources.retrieve(ctx.org.organisationId, [faqId], question, 8);
    const prompt: AnswerPrompt = {
      system: '', messages: [{ role: 'user', content: question }], question, passages: toPassages(chunks), restrictResponse: 'Ask me about candles.',
    };
    const fresh = new WorkerSentenceEncoder();
    const cold = new WorkerSentenceEncoder();
    try {
      const withStored = await new LocalAnswerModel(fresh).answer({ ...prompt, storedSentenceVectors: ctx.services.resources.storedSentenceVectors(ctx.org.organisationId, chunks) });
      // Only the question went through the model.
      expect(fresh.encoded).toBe(1);
      const encodedHere = await new LocalAnswerModel(cold).answer(prompt);
      expect(cold.encoded).toBeGreaterThan(5);
      expect(withStored.text).toBe(encodedHere.text);
      expect(withStored.text).toMatch(/Trim the wick to 5 mm/);
    } finally {
      await Promise.all([fresh.close(), cold.close()]);
    }
  }, 60_000);

  it('are read only within the organisation that owns the chunks', async () => {
    const chunkIds = (await chunksOf(faqId)).map((chunk) => Number(chunk.id));
    const texts = meaningTexts(FAQ);
    expect((await readSentenceVectors(ctx.database.db, ctx.org.organisationId, chunkIds, texts)).size).toBe(texts.length);
    const other = await ctx.newOrganisation();
    expect((await readSentenceVectors(ctx.database.db, other.organisationId, chunkIds, texts)).size).toBe(0);
  });

  it('follow a re-sync: the new chunks get theirs, the replaced ones go with their chunks', async () => {
    const before = new Set((await chunksOf(faqId)).map((chunk) => Number(chunk.id)));
    const res = await ctx.api.put(`/v1/resource/text/${faqId}`).send({ content: `${FAQ}\n## Gift cards\nGift cards never expire and can be used online.` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The resource stays DONE (its old chunks searchable) until the re-index commits.
    const deadline = Date.now() + 30_000;
    while (!(await chunksOf(faqId)).some((chunk) => !before.has(Number(chunk.id)))) {
      if (Date.now() > deadline) throw new Error('the resource was not re-indexed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitForVectors(faqId);
    const orphans = await ctx.database.db('chunk_sentence_vectors as v').leftJoin('resource_chunks as c', 'c.id', 'v.chunk_id').whereNull('c.id').count({ n: '*' });
    expect(Number(orphans[0]!.n)).toBe(0);
  }, 90_000);

  it('are queued at start for chunks indexed without them', async () => {
    await ctx.database.db('chunk_sentence_vectors').del();
    expect(await queueMissingSentenceVectors(ctx.database.db, ctx.services.jobs)).toBe(1);
    ctx.services.worker.notify();
    await waitForVectors(faqId);
    expect(await queueMissingSentenceVectors(ctx.database.db, ctx.services.jobs)).toBe(0);
  }, 90_000);

  it('go with their resource', async () => {
    const res = await ctx.api.delete(`/v1/resource/${faqId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await storedOf(faqId)).toHaveLength(0);
    expect(Number((await ctx.database.db('chunk_sentence_vectors').count({ n: '*' }))[0]!.n)).toBe(0);
  });
});

describe('stored sentence vectors with a model provider', () => {
  let withProvider: TestContext;
  afterAll(async () => { await withProvider?.close(); });

  it('are not stored for a resource whose every chatbot is answered by a provider, and are for one no chatbot uses yet', async () => {
    // OpenAI-family models (the chatbot's and the resource chat's) have credentials; the other families run locally.
    withProvider = await createTestContext({ env: { LOCAL_SENTENCE_ENCODER: 'true', RESOURCE_CREATION_RATE_LIMIT: '1000', OPENAI_API_KEY: 'sk-test' } });
    const { api, database } = withProvider;
    const linked = (await createResource(api, 'text', { name: 'Linked', content: FAQ })).id;
    const unused = (await createResource(api, 'text', { name: 'Unused', content: FAQ })).id;
    const chatbot = await api.post('/v1/chatbot').send({ name: 'Provider bot', model: 'alpha-4o-mini', resourceIds: [linked] });
    expect(chatbot.status, JSON.stringify(chatbot.body)).toBe(201);
    withProvider.startJobs();
    const unfinished = () => database.db('jobs').whereNot({ status: 'done' }).count<{ n: number }[]>({ n: '*' });
    const deadline = Date.now() + 60_000;
    while (Number((await unfinished())[0]!.n) > 0) {
      if (Date.now() > deadline) throw new Error('jobs did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const storedFor = async (resourceId: string) => (await database.db('chunk_sentence_vectors as v').join('resource_chunks as c', 'c.id', 'v.chunk_id')
      .where('c.resource_id', resourceId).pluck('v.chunk_id')).length;
    expect(await storedFor(linked)).toBe(0);
    expect(await storedFor(unused)).toBe((await database.db('resource_chunks').where({ resource_id: unused }).pluck('id')).length);
    expect(await database.db('jobs').where({ kind: STORE_SENTENCE_VECTORS_JOB }).pluck('status')).toEqual(['done', 'done']);
    // What each reports: the skipped resource has no meaning index to wait for (its chunk vectors
    // alone, when the local encoder is retrieval's embedder), never a PENDING that stays.
    const meaningIndexOf = async (resourceId: string) => (await api.get(`/v1/resource/${resourceId}`)).body.meaningIndex;
    expect(await meaningIndexOf(unused)).toEqual({ state: 'COMPLETE', progress: 1 });
    expect([undefined, { state: 'COMPLETE', progress: 1 }]).toContainEqual(await meaningIndexOf(linked));

    // The chatbot moves to a model family without credentials: the local engine answers it now, so the skipped resource gets its vectors.
    const moved = await api.put(`/v1/chatbot/${chatbot.body.id}`).send({ model: 'beta-haiku-4.5' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const filled = Date.now() + 60_000;
    const chunks = (await database.db('resource_chunks').where({ resource_id: linked }).pluck('id')).length;
    while (await storedFor(linked) < chunks) {
      if (Date.now() > filled) throw new Error('the skipped resource did not get its vectors');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await meaningIndexOf(linked)).toEqual({ state: 'COMPLETE', progress: 1 });
    // Nothing is missing any more: saving the chatbot again queues nothing.
    expect((await api.put(`/v1/chatbot/${chatbot.body.id}`).send({ resourceIds: [linked, unused] })).status).toBe(200);
    expect(await database.db('jobs').where({ kind: STORE_SENTENCE_VECTORS_JOB }).count<{ n: number }[]>({ n: '*' })).toEqual([{ n: 3 }]);
  }, 90_000);
});
