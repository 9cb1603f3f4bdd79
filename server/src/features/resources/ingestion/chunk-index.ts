import type { Knex } from 'knex';

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
  /** Chunks of new or changed sections, written ahead by `stageChunks`, moved in here; none when nothing changed. */
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
 * gone or changed are deleted and the new ones moved in from the run's staged rows, so readers see the old set until commit and the new one after (decisions.md: a re-sync
 * keeps content searchable).
 */
export async function swapChunks(trx: Knex, swap: ChunkSwap): Promise<void> {
  const stale = trx('resource_chunks').where({ resource_id: swap.resourceId });
  if (swap.keepHashes.size > 0) stale.where((q) => q.whereNull('content_hash').orWhereNotIn('content_hash', [...swap.keepHashes]));
  await stale.delete();
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

