import type { Knex } from 'knex';

/** Where a chunk's text came from, for citations. */
export interface ChunkProvenance {
  page?: number;
  url?: string;
  title?: string;
  startSeconds?: number;
  endSeconds?: number;
}

/** One retrieved passage, best first. */
export interface RetrievedChunk {
  resourceId: string;
  fileName: string;
  content: string;
  provenance: ChunkProvenance;
  /** Higher is more relevant; comparable only within one retrieval. */
  score: number;
}

/**
 * The passages of the given resources that best answer a natural-language question (OR-of-terms
 * full-text ranking, not AND-of-all-words). Only the organisation's resources are searched.
 */
export async function retrieveChunks(
  db: Knex, organisationId: string, resourceIds: readonly string[], question: string, k: number,
): Promise<RetrievedChunk[]> {
  if (resourceIds.length === 0 || k <= 0) return [];
  const terms = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (terms.length === 0) return [];
  const result = await db.raw(
    `WITH q AS (SELECT to_tsquery('english', array_to_string(array(
        SELECT quote_literal(lexeme) FROM unnest(to_tsvector('english', ?)) ), ' | ')) AS query)
     SELECT c.resource_id, r.file_name, c.content, c.provenance, ts_rank_cd(c.tsv, q.query) AS score
     FROM resource_chunks c JOIN resources r ON r.id = c.resource_id, q
     WHERE c.organisation_id = ? AND c.resource_id = ANY(?::text[]) AND q.query IS NOT NULL AND c.tsv @@ q.query
     ORDER BY score DESC, c.id LIMIT ?`,
    [terms.join(' '), organisationId, [...resourceIds], k],
  );
  return (result.rows as { resource_id: string; file_name: string; content: string; provenance: ChunkProvenance; score: number }[])
    .map((row) => ({ resourceId: row.resource_id, fileName: row.file_name, content: row.content, provenance: row.provenance, score: Number(row.score) }));
}
