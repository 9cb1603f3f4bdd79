import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../db/ids.js';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, replaceChunkTexts } from '../resources.test-support.js';
import { swapChunks } from './chunk-index.js';
import { discardStagedChunks, stageChunks } from './chunk-staging.js';
import { chunkSections } from './stages/chunk-text.js';

// Issue 38: on the embedded database (one connection), a big resource's chunks were written in one
// transaction, and every other organisation's call waited for all of it.
let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext({ env: { LOCAL_SENTENCE_ENCODER: 'false' } }); });
afterAll(async () => { await ctx?.close(); });

/** Paragraphs of ordinary sentences, `chars` characters in all. */
const longText = (chars: number) => Array.from({ length: Math.ceil(chars / 400) }, (_, i) =>
  `Section ${i}: the greenhouse keeps its tomatoes warm at night, and the gardener waters them at dawn before the market opens. `.repeat(3)).join('\n\n').slice(0, chars);

const count = async (table: string, resourceId: string) =>
  Number((await ctx.database.db(table).where({ resource_id: resourceId }).count<{ n: string }[]>({ n: '*' }))[0]!.n);

const stagedAndLive = async (resourceId: string) => {
  const result = await ctx.database.db.raw(
    'SELECT (SELECT count(*) FROM resource_chunk_staging WHERE resource_id = ?) AS staged, (SELECT count(*) FROM resource_chunks WHERE resource_id = ?) AS live',
    [resourceId, resourceId],
  );
  const row = (result as { rows: { staged: string | number; live: string | number }[] }).rows[0]!;
  return { staged: Number(row.staged), live: Number(row.live) };
};

describe('a big resource\'s chunks', () => {
  it('are written in short transactions: another organisation is answered between them, and readers see none until all are in', async () => {
    const neighbour = await ctx.newOrganisation();
    const chatbot = await neighbour.api.post('/v1/chatbot').send({ name: 'Neighbour' });
    expect(chatbot.status).toBe(201);
    const big = await createResource(ctx.api, 'text', { name: 'Greenhouse notes', content: longText(2_000_000) });
    ctx.startJobs();
    // Answers to the neighbour that began and ended while the text's chunks were partly written.
    let answeredMidWrite = 0;
    let slowestMs = 0;
    let status = 'NOT_STARTED';
    while (status === 'NOT_STARTED' || status === 'IN_PROGRESS') {
      const stagedBefore = await count('resource_chunk_staging', big.id);
      const started = performance.now();
      const res = await neighbour.api.get(`/v1/chatbot/${chatbot.body.id}`);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      expect(res.status).toBe(200);
      const stagedAfter = await count('resource_chunk_staging', big.id);
      if (stagedBefore > 0 && stagedAfter > stagedBefore) answeredMidWrite++;
      // Readers see no chunk of the resource until its last one is written: staged rows and live
      // chunks read in one statement (one snapshot), since the swap may commit between two.
      const seen = await stagedAndLive(big.id);
      if (seen.staged > 0) expect(seen.live).toBe(0);
      status = (await ctx.api.get(`/v1/resource/${big.id}`)).body.aiProcessingStatus as string;
    }
    expect(status).toBe('DONE');
    expect(answeredMidWrite, `slowest neighbour call ${Math.round(slowestMs)} ms`).toBeGreaterThan(0);
    expect(await count('resource_chunks', big.id)).toBeGreaterThan(1_000);
    expect(await count('resource_chunk_staging', big.id)).toBe(0);
  }, 120_000);

  it('replace the old ones only when the swap commits; a failed swap leaves the old set whole', async () => {
    const { db } = ctx.database;
    const resourceId = newId();
    const organisationId = ctx.org.organisationId;
    await db('resources').insert({ id: resourceId, organisation_id: organisationId, creator: ctx.org.userId, file_name: 'Plants', type: 'TEXT', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
    const chunksOf = (text: string) => chunkSections([{ provenance: {}, units: [{ text }] }]);
    await replaceChunkTexts(db, { resourceId, organisationId }, ['Ferns like shade and damp soil.']);
    const contents = () => db('resource_chunks').where({ resource_id: resourceId }).orderBy('ordinal').pluck('content');
    const old = await contents();

    const run = { runKey: 'run-1', jobId: 0, resourceId, organisationId };
    const staged = await stageChunks(db, run, chunksOf('Cacti like sun and dry sand.'), new AbortController().signal);
    expect(staged.count).toBe(1);
    expect(await contents()).toEqual(old);

    await expect(db.transaction(async (trx) => {
      await swapChunks(trx, { resourceId, organisationId, keepHashes: new Set(), staged });
      throw new Error('the outcome could not be stored');
    })).rejects.toThrow('could not be stored');
    expect(await contents()).toEqual(old);

    await db.transaction((trx) => swapChunks(trx, { resourceId, organisationId, keepHashes: new Set(), staged }));
    expect(await contents()).toEqual(['Cacti like sun and dry sand.']);
    const [row] = await db('resource_chunks').where({ resource_id: resourceId }).select('token_count');
    expect(row.token_count).toBeGreaterThan(0);
    expect(await count('resource_chunk_staging', resourceId)).toBe(0);
    const searched = await db('resource_chunks').where({ resource_id: resourceId }).whereRaw("tsv @@ to_tsquery('english', 'sand')").count<{ n: string }[]>({ n: '*' });
    expect(Number(searched[0]!.n)).toBe(1);

    // A run that ended without its swap leaves nothing once discarded.
    await stageChunks(db, { ...run, runKey: 'run-2' }, chunksOf('Orchids like bark.'), new AbortController().signal);
    await discardStagedChunks(db, 'run-2');
    expect(await count('resource_chunk_staging', resourceId)).toBe(0);
  });
});
