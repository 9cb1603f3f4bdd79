import type { Knex } from 'knex';
import type { TextChunk } from './stages/chunk-text.js';
import { toVectorLiteral } from './stages/embed-chunks.js';

const vectorColumnCache = new WeakMap<Knex, Promise<boolean>>();

/** Whether `resource_chunks.embedding` exists (pgvector was available when migrating). */
export function hasVectorColumn(db: Knex): Promise<boolean> {
  let cached = vectorColumnCache.get(db);
  if (!cached) {
    cached = db.raw(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'resource_chunks' AND column_name = 'embedding' AND table_schema = current_schema()",
    ).then((result) => result.rows.length > 0);
    vectorColumnCache.set(db, cached);
  }
  return cached;
}

/** The section hashes a resource's current chunks were cut from. */
export async function indexedSectionHashes(db: Knex, resourceId: string): Promise<Set<string>> {
  const hashes = await db('resource_chunks').where({ resource_id: resourceId }).whereNotNull('content_hash').distinct('content_hash').pluck('content_hash');
  return new Set(hashes as string[]);
}

export interface ChunkSwap {
  resourceId: string;
  organisationId: string;
  /** Sections whose chunks stay as they are (unchanged since the last sync). */
  keepHashes: ReadonlySet<string>;
  /** Chunks of new or changed sections, inserted here. */
  chunks: readonly TextChunk[];
  embeddings?: { model: string; vectors: readonly number[][] };
  /** Chunks of new or changed sections written ahead by `stageChunks` (ingestion), moved in here. */
  staged?: StagedChunks;
}

/** An ingestion run's new chunks, written ahead of its swap in `resource_chunk_staging` (20261203P). */
export interface StagedChunks {
  runKey: string;
  count: number;
  withEmbeddings: boolean;
}

/**
 * Replaces a resource's chunk set inside the caller's transaction: chunks of sections that are
 * gone or changed are deleted and the new ones inserted (or moved in from the run's staged
 * rows), so readers see the old set until commit and the new one after (decisions.md: a re-sync
 * keeps content searchable).
 */
export async function swapChunks(trx: Knex, swap: ChunkSwap): Promise<void> {
  const stale = trx('resource_chunks').where({ resource_id: swap.resourceId });
  if (swap.keepHashes.size > 0) stale.where((q) => q.whereNull('content_hash').orWhereNotIn('content_hash', [...swap.keepHashes]));
  await stale.delete();
  if (swap.chunks.length > 0) await insertChunks(trx, swap);
  if (swap.staged) await moveStagedChunks(trx, swap.resourceId, swap.staged);
  await updateChunkStatistics(trx, swap.resourceId);
}

/** A resource's chunk statistics (20261122G): how many chunks, how many tokens; retrieval's warm-up budgets by them. */
export async function updateChunkStatistics(db: Knex, resourceId: string): Promise<void> {
  await db.raw(
    `UPDATE resources SET chunk_count = s.chunks, chunk_tokens = s.tokens
     FROM (SELECT count(*) AS chunks, coalesce(sum(token_count), 0) AS tokens FROM resource_chunks WHERE resource_id = ?) s
     WHERE id = ?`,
    [resourceId, resourceId],
  );
}

/**
 * Chunk rows with their full-text vector and token count (as BM25 reads them: the vector's
 * positions), `to_tsvector` computed once per chunk (20261202P; `OFFSET 0` keeps the planner from
 * inlining it into both columns), into `resource_chunks` or a run's staged rows.
 */
export const INSERT_CHUNKS = (withEmbeddings: boolean, staging = false) => `
  INSERT INTO ${staging ? 'resource_chunk_staging (run_key, job_id, ' : 'resource_chunks ('}resource_id, organisation_id, ordinal, content, provenance, content_hash, tsv, token_count${withEmbeddings ? ', embedding, embedding_model' : ''})
  SELECT ${staging ? 'r.run_key, r.job_id, ' : ''}r.resource_id, r.organisation_id, r.ordinal, r.content, r.provenance, r.content_hash, r.tsv,
    (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(r.tsv))${withEmbeddings ? `, r.embedding${staging ? '' : '::vector'}, r.embedding_model` : ''}
  FROM (
    SELECT r.*, to_tsvector('english', r.content) AS tsv
    FROM jsonb_to_recordset(?::jsonb) AS r(${staging ? 'run_key text, job_id bigint, ' : ''}resource_id text, organisation_id text, ordinal int, content text, provenance jsonb, content_hash text${withEmbeddings ? ', embedding text, embedding_model text' : ''})
    OFFSET 0
  ) r`;

/** A chunk row as the insert statements read it. */
export interface ChunkRow { content: string; [column: string]: unknown }

/**
 * Runs `insert` over `rows` in batches bounded in text as well as rows, one statement each: on the
 * embedded database every statement runs on the service's own thread, and building the full-text
 * index of 500 long chunks at once held it for hundreds of milliseconds.
 */
export async function insertInBatches(rows: readonly ChunkRow[], insert: (batch: readonly ChunkRow[]) => Promise<unknown>): Promise<void> {
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

async function insertChunks(trx: Knex, swap: ChunkSwap): Promise<void> {
  const first = await trx('resource_chunks').where({ resource_id: swap.resourceId }).max({ max: 'ordinal' }).first();
  const base = Number(first?.max ?? -1) + 1;
  const rows = swap.chunks.map((chunk, index) => ({
    resource_id: swap.resourceId,
    organisation_id: swap.organisationId,
    ordinal: base + index,
    content: chunk.content,
    provenance: chunk.provenance,
    content_hash: chunk.contentHash,
    ...(swap.embeddings ? { embedding: toVectorLiteral(swap.embeddings.vectors[index]!), embedding_model: swap.embeddings.model } : {}),
  }));
  // One statement per batch, the token counts with the rows: counting them after the insert
  // (an UPDATE of every new row) computed each chunk's tsvector again and rewrote the row.
  await insertInBatches(rows, (batch) => trx.raw(INSERT_CHUNKS(swap.embeddings !== undefined), [JSON.stringify(batch)]));
}

/**
 * Moves a run's staged chunks into `resource_chunks` after the resource's last ordinal, in their
 * order, with the full-text vectors and token counts computed when they were staged (the
 * `tsv` trigger of 20261202P fills only a missing one), then deletes the run's staged rows and
 * those left by runs that ended without a swap (their job is no longer running). Throws when
 * rows are missing: the caller's transaction then leaves the old chunk set as it was.
 */
async function moveStagedChunks(trx: Knex, resourceId: string, staged: StagedChunks): Promise<void> {
  const first = await trx('resource_chunks').where({ resource_id: resourceId }).max({ max: 'ordinal' }).first();
  const base = Number(first?.max ?? -1) + 1;
  const vectors = staged.withEmbeddings ? ', embedding, embedding_model' : '';
  const moved = await trx.raw(
    `INSERT INTO resource_chunks (resource_id, organisation_id, ordinal, content, provenance, content_hash, tsv, token_count${vectors})
     SELECT resource_id, organisation_id, ? + ordinal, content, provenance, content_hash, tsv, token_count${staged.withEmbeddings ? ', embedding::vector, embedding_model' : ''}
     FROM resource_chunk_staging WHERE run_key = ? AND resource_id = ? ORDER BY ordinal`,
    [base, staged.runKey, resourceId],
  );
  const count = (moved as { rowCount?: number; affectedRows?: number }).rowCount ?? (moved as { affectedRows?: number }).affectedRows;
  if (count !== staged.count) throw new Error(`${count ?? 'no'} of the ${staged.count} staged chunks of the resource were found`);
  await trx.raw(
    `DELETE FROM resource_chunk_staging s WHERE s.resource_id = ?
       AND (s.run_key = ? OR NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = s.job_id AND j.status = 'running'))`,
    [resourceId, staged.runKey],
  );
}

const INSERT_BATCH_ROWS = 500;
const INSERT_BATCH_CHARS = 30_000;
