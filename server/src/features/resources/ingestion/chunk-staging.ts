import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { swapChunks, type StagedChunks } from './chunk-index.js';
import type { TextChunk } from './stages/chunk-text.js';
import { toVectorLiteral } from './stages/embed-chunks.js';

/** Whose staged rows they are: one ingestion run of a resource (a job's attempt). */
export interface StagingRun {
  runKey: string;
  jobId: number;
  resourceId: string;
  organisationId: string;
}

/**
 * Writes a run's new chunks to `resource_chunk_staging` (20261203P), a batch per statement, each
 * its own short transaction: no reader looks there, so the resource's old chunks stay whole until
 * `swapChunks` moves these in with the run's outcome, and on the embedded database (one
 * connection) other organisations' requests are answered between two batches instead of waiting
 * for the whole resource. The full-text vectors are computed here, outside the swap's transaction.
 */
export async function stageChunks(
  db: Knex, run: StagingRun, chunks: readonly TextChunk[], signal: AbortSignal,
  embeddings?: { model: string; vectors: readonly number[][] },
): Promise<StagedChunks> {
  const rows = chunks.map((chunk, index) => ({
    run_key: run.runKey,
    job_id: run.jobId,
    resource_id: run.resourceId,
    organisation_id: run.organisationId,
    ordinal: index,
    content: chunk.content,
    provenance: chunk.provenance,
    content_hash: chunk.contentHash,
    ...(embeddings ? { embedding: toVectorLiteral(embeddings.vectors[index]!), embedding_model: embeddings.model } : {}),
  }));
  await insertInBatches(rows, async (batch) => {
    // A deleted resource's run stops between batches (its staged rows went with it).
    signal.throwIfAborted();
    await db.raw(STAGE_CHUNKS(embeddings !== undefined), [JSON.stringify(batch)]);
  });
  return { runKey: run.runKey, count: rows.length, withEmbeddings: embeddings !== undefined };
}

/**
 * Staged chunk rows with their full-text vector and token count (as BM25 reads them: the vector's
 * positions), `to_tsvector` computed once per chunk (20261202P; `OFFSET 0` keeps the planner from
 * inlining it into both columns). The swap copies both into `resource_chunks` as they are.
 */
const STAGE_CHUNKS = (withEmbeddings: boolean) => `
  INSERT INTO resource_chunk_staging (run_key, job_id, resource_id, organisation_id, ordinal, content, provenance, content_hash, tsv, token_count${withEmbeddings ? ', embedding, embedding_model' : ''})
  SELECT r.run_key, r.job_id, r.resource_id, r.organisation_id, r.ordinal, r.content, r.provenance, r.content_hash, r.tsv,
    (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(r.tsv))${withEmbeddings ? ', r.embedding, r.embedding_model' : ''}
  FROM (
    SELECT r.*, to_tsvector('english', r.content) AS tsv
    FROM jsonb_to_recordset(?::jsonb) AS r(run_key text, job_id bigint, resource_id text, organisation_id text, ordinal int, content text, provenance jsonb, content_hash text${withEmbeddings ? ', embedding text, embedding_model text' : ''})
    OFFSET 0
  ) r`;

const INSERT_BATCH_ROWS = 500;
const INSERT_BATCH_CHARS = 30_000;

/**
 * Runs `insert` over `rows` in batches bounded in text as well as rows, one statement each: on the
 * embedded database every statement runs on the service's own thread, and building the full-text
 * index of 500 long chunks at once held it for hundreds of milliseconds.
 */
async function insertInBatches<Row extends { content: string }>(rows: readonly Row[], insert: (batch: readonly Row[]) => Promise<unknown>): Promise<void> {
  let start = 0;
  while (start < rows.length) {
    let end = start;
    let chars = 0;
    while (end < rows.length && end - start < INSERT_BATCH_ROWS && (end === start || chars + rows[end]!.content.length <= INSERT_BATCH_CHARS)) {
      chars += rows[end]!.content.length;
      end++;
    }
    await insert(rows.slice(start, end));
    start = end;
    // The embedded database answers within the same turn of the event loop, so a run of batches
    // would never let a request in: 84 batches of a 5,000,000-character text held it for 2 s.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Deletes a run's staged rows (it ended without its swap, or after it: then there are none). */
export async function discardStagedChunks(db: Knex, runKey: string): Promise<void> {
  await db('resource_chunk_staging').where({ run_key: runKey }).delete();
}

/**
 * Replaces all of a resource's chunks with `chunks` outside an ingestion job (tests, benchmarks):
 * staged, then swapped in, as a run does.
 */
export async function replaceChunks(db: Knex, resource: { resourceId: string; organisationId: string }, chunks: readonly TextChunk[]): Promise<void> {
  const staged = await stageChunks(db, { runKey: randomUUID(), jobId: 0, ...resource }, chunks, new AbortController().signal);
  await db.transaction((trx) => swapChunks(trx, { ...resource, keepHashes: new Set(), staged }));
}
