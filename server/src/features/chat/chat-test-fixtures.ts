import type { Knex } from 'knex';
import { newId } from '../../db/ids.js';
import type { ChunkProvenance } from '../resources/retrieve-chunks.js';

/** One chunk to store: its text and where it came from. */
export interface ChunkInput {
  content: string;
  provenance?: ChunkProvenance;
}

/**
 * Inserts a finished resource with its chunks directly, for tests and benchmarks of chat that must
 * not depend on ingestion. Chunks are written in batches; returns the resource id.
 */
export async function insertChunkedResource(
  db: Knex, organisationId: string, creator: string, fileName: string, chunks: readonly (ChunkInput | string)[],
  type: 'TEXT' | 'PDF' | 'WEB' | 'VIDEO' = 'TEXT',
): Promise<string> {
  const id = newId();
  await db('resources').insert({
    id, organisation_id: organisationId, creator, file_name: fileName, type, created_at: Date.now(),
    ai_processing_status: 'DONE', tags: [],
  });
  const rows = chunks.map((chunk, ordinal) => {
    const { content, provenance } = typeof chunk === 'string' ? { content: chunk, provenance: {} } : chunk;
    return { resource_id: id, organisation_id: organisationId, ordinal, content, provenance: JSON.stringify(provenance ?? {}) };
  });
  for (let i = 0; i < rows.length; i += 500) await db('resource_chunks').insert(rows.slice(i, i + 500));
  // Token counts for BM25's length normalisation, as ingestion computes them.
  await db.raw(
    'UPDATE resource_chunks SET token_count = (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(tsv)) WHERE resource_id = ?',
    [id],
  );
  return id;
}
