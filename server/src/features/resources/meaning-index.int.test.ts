import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceListSchema, ResourceSchema } from '@parley/shared';
import { LOCAL_ENCODER_MODEL } from '../../providers/llm/local/sentence-encoder.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { hasVectorColumn } from './ingestion/chunk-index.js';
import { createResource, waitForProcessing } from './resources.test-support.js';

/**
 * A resource is DONE once searchable by words; its meaning index (the local engine's sentence
 * vectors and, with the local encoder as retrieval's embedder, its chunks' vectors) is filled in
 * behind by a job, and the resource reports how far it is (`meaningIndex`).
 */
let ctx: TestContext;

const TEXT = [
  '# Harbour Lights Guesthouse',
  '## Arrival',
  'Check-in opens at 3 pm and the front desk closes at 10 pm. Late arrivals collect their key from the lockbox by the door.',
  '## Breakfast',
  'Breakfast is served from 7:30 to 10 in the garden room. Vegan and gluten-free options are available on request.',
  '## Parking',
  'Guests park free of charge in the yard behind the house; the gate code is on the booking confirmation.',
].join('\n');

const chunkIds = (resourceId: string) => ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('id').pluck('id');

async function meaningIndexOf(resourceId: string) {
  const res = await ctx.api.get(`/v1/resource/${resourceId}`);
  expect(res.status).toBe(200);
  return ResourceSchema.parse(res.body).meaningIndex;
}

async function waitForComplete(resourceId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const index = await meaningIndexOf(resourceId);
    if (index?.state === 'COMPLETE') return index;
    if (Date.now() > deadline) throw new Error(`meaning index still ${JSON.stringify(index)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOCAL_SENTENCE_ENCODER: 'true', RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
}, 60_000);
afterAll(async () => { await ctx?.close(); });

describe('the meaning index of a resource', () => {
  it('fills in after DONE, and the resource reports it COMPLETE with its chunks embedded by the local encoder', async () => {
    const { id } = await createResource(ctx.api, 'text', { name: 'Guesthouse', content: TEXT });
    const done = await waitForProcessing(ctx.api, id);
    expect(done.aiProcessingStatus).toBe('DONE');
    expect(await waitForComplete(id)).toEqual({ state: 'COMPLETE', progress: 1 });
    const chunks = await chunkIds(id);
    expect(chunks.length).toBeGreaterThan(0);
    if (await hasVectorColumn(ctx.database.db)) {
      const models = await ctx.database.db('resource_chunks').where({ resource_id: id }).pluck('embedding_model');
      expect(models).toEqual(chunks.map(() => LOCAL_ENCODER_MODEL));
    }
    const list = ResourceListSchema.parse((await ctx.api.get('/v1/resource/all')).body);
    expect(list.find((resource) => resource.id === id)?.meaningIndex).toEqual({ state: 'COMPLETE', progress: 1 });
  }, 90_000);

  it('reports PENDING with no stored vectors and FILLING with some, as the job finds them', async () => {
    const { id } = await createResource(ctx.api, 'text', { name: 'Guesthouse again', content: `${TEXT}\n\n${TEXT.replaceAll('Guesthouse', 'Inn')}` });
    await waitForProcessing(ctx.api, id);
    await waitForComplete(id);
    await ctx.services.worker.stop();
    const chunks = await chunkIds(id);
    await ctx.database.db('chunk_sentence_vectors').whereIn('chunk_id', chunks).delete();
    expect(await meaningIndexOf(id)).toEqual({ state: 'PENDING', progress: 0 });
    if (chunks.length > 1) {
      await ctx.database.db('chunk_sentence_vectors').insert({ chunk_id: chunks[0], organisation_id: ctx.org.organisationId, model: LOCAL_ENCODER_MODEL, vectors: Buffer.from([1]) });
      const filling = await meaningIndexOf(id);
      expect(filling?.state).toBe('FILLING');
      expect(filling!.progress).toBeGreaterThan(0);
      expect(filling!.progress).toBeLessThan(1);
    }
  }, 90_000);

  it('is absent while a resource is not DONE', async () => {
    // The worker was stopped by the test before: the resource stays NOT_STARTED.
    const { id } = await createResource(ctx.api, 'text', { name: 'Waiting', content: TEXT });
    const res = await ctx.api.get(`/v1/resource/${id}`);
    expect(ResourceSchema.parse(res.body).aiProcessingStatus).toBe('NOT_STARTED');
    expect(res.body.meaningIndex).toBeUndefined();
  });
});
