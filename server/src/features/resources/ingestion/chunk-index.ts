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
  /** Chunks of new or changed sections. */
  chunks: readonly TextChunk[];
  embeddings?: { model: string; vectors: readonly number[][] };
}

/**
 * Replaces a resource's chunk set inside the caller's transaction: chunks of sections that are
 * gone or changed are deleted and the new ones inserted, so readers see the old set until
 * commit and the new one after (decisions.md: a re-sync keeps content searchable).
 */
export async function swapChunks(trx: Knex, swap: ChunkSwap): Promise<void> {
  const stale = trx('resource_chunks').where({ resource_id: swap.resourceId });
  if (swap.keepHashes.size > 0) stale.where((q) => q.whereNull('content_hash').orWhereNotIn('content_hash', [...swap.keepHashes]));
  await stale.delete();
  if (swap.chunks.length > 0) await insertChunks(trx, swap);
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
 * inlining it into both columns).
 */
const INSERT_CHUNKS = (withEmbeddings: boolean) => `
  INSERT INTO resource_chunks (resource_id, organisation_id, ordinal, content, provenance, content_hash, tsv, token_count${withEmbeddings ? ', embedding, embedding_model' : ''})
  SELECT r.resource_id, r.organisation_id, r.ordinal, r.content, r.provenance, r.content_hash, r.tsv,
    (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(r.tsv))${withEmbeddings ? ', r.embedding::vector, r.embedding_model' : ''}
  FROM (
    SELECT r.*, to_tsvector('english', r.content) AS tsv
    FROM jsonb_to_recordset(?::jsonb) AS r(resource_id text, organisation_id text, ordinal int, content text, provenance jsonb, content_hash text${withEmbeddings ? ', embedding text, embedding_model text' : ''})
    OFFSET 0
  ) r`;

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
  let start = 0;
  while (start < rows.length) {
    // Batches bounded in text as well as rows: on the embedded database every statement runs on
    // the service's own thread, and building the full-text index of 500 long chunks at once held
    // it for hundreds of milliseconds.
    let end = start;
    let chars = 0;
    while (end < rows.length && end - start < INSERT_BATCH_ROWS && (end === start || chars + rows[end]!.content.length <= INSERT_BATCH_CHARS)) {
      chars += rows[end]!.content.length;
      end++;
    }
    // One statement per batch, the token counts with the rows: counting them after the insert
    // (an UPDATE of every new row) computed each chunk's tsvector again and rewrote the row.
    await trx.raw(INSERT_CHUNKS(swap.embeddings !== undefined), [JSON.stringify(rows.slice(start, end))]);
    start = end;
    // The embedded database answers within the same turn of the event loop, so a run of batches
    // would never let a request in: 84 batches of a 5,000,000-character text held it for 2 s.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const INSERT_BATCH_ROWS = 500;
const INSERT_BATCH_CHARS = 30_000;
