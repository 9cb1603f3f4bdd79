import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../../storage/create-file-store.js';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { ResourcesRepository } from '../resources.repository.js';
import { createResource } from '../resources.test-support.js';
import { hasVectorColumn } from './chunk-index.js';
import { INGEST_RESOURCE_JOB, ingestionDedupeKey } from './ingestion-worker.js';
import { runIngestion, type IngestionContext } from './run-ingestion.js';
import type { Embedder } from './stages/embed-chunks.js';

// The worker is not started: each read runs here with the pipeline the test gives it.
let ctx: TestContext;
let base: IngestionContext;

beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  const { db } = ctx.database;
  base = {
    db, jobs: ctx.services.jobs, repository: new ResourcesRepository(db), logger: pino({ level: 'silent' }),
    files: createFileStore(ctx.config), allowPrivateNetworks: true, userAgent: 'ParleyTest', parserLimits: ctx.config.parserLimits,
  };
});
afterAll(async () => { await ctx?.close(); });

/** An embedder of one model that counts the texts it was given. */
function countingEmbedder(model: string): Embedder & { embedded: number } {
  return { model, embedded: 0, async embed(texts) { this.embedded += texts.length; return texts.map(() => [1, 0.5]); } };
}

/** Queues and runs one read of the resource under the given ingestion context. */
async function read(resourceId: string, ingestion: IngestionContext): Promise<void> {
  await ctx.services.jobs.enqueue(INGEST_RESOURCE_JOB, { resourceId, organisationId: ctx.org.organisationId }, { dedupeKey: ingestionDedupeKey(resourceId) });
  const job = await ctx.services.jobs.claim([INGEST_RESOURCE_JOB], 'test', 60_000);
  await runIngestion(ingestion, job as Parameters<typeof runIngestion>[1], new AbortController().signal);
}

const chunkRows = (resourceId: string) => ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('id').select('id', 'embedding_model');

describe('a changed text pipeline', () => {
  it('re-indexes an unchanged source when the embeddings model is set or changed, and keeps it when nothing changed', async (test) => {
    if (!await hasVectorColumn(ctx.database.db)) test.skip();
    const created = await createResource(ctx.api, 'text', { name: 'Hours', content: 'The bakery opens at 7am every weekday.' });
    await read(created.id, base);
    const plain = await chunkRows(created.id);
    expect(plain.map((row) => row.embedding_model)).toEqual([null]);

    const first = countingEmbedder('model-a');
    await read(created.id, { ...base, embedder: first });
    const embedded = await chunkRows(created.id);
    expect(embedded.map((row) => row.embedding_model)).toEqual(['model-a']);
    expect(embedded[0]!.id).not.toBe(plain[0]!.id);
    expect(first.embedded).toBe(1);

    await read(created.id, { ...base, embedder: first });
    expect(await chunkRows(created.id)).toEqual(embedded);
    expect(first.embedded).toBe(1);

    await read(created.id, { ...base, embedder: countingEmbedder('model-b') });
    expect((await chunkRows(created.id)).map((row) => row.embedding_model)).toEqual(['model-b']);
  });
});
