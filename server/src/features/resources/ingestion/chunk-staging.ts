import type { Knex } from 'knex';
import { INSERT_CHUNKS, insertInBatches, type StagedChunks } from './chunk-index.js';
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
    await db.raw(INSERT_CHUNKS(embeddings !== undefined, true), [JSON.stringify(batch)]);
  });
  return { runKey: run.runKey, count: rows.length, withEmbeddings: embeddings !== undefined };
}

/** Deletes a run's staged rows (it ended without its swap, or after it: then there are none). */
export async function discardStagedChunks(db: Knex, runKey: string): Promise<void> {
  await db('resource_chunk_staging').where({ run_key: runKey }).delete();
}
