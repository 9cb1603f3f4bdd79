import type { Knex } from 'knex';
import { hasVectorColumn } from './ingestion/chunk-index.js';
import { toVectorLiteral, type Embedder } from './ingestion/stages/embed-chunks.js';

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

export interface RetrieveOptions {
  /** When given (and pgvector is there), vector neighbours are fused with the full-text ranking. */
  embedder?: Embedder;
}

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** Reciprocal rank fusion constant (Cormack et al. 2009). */
const RRF_K = 60;
/** A term found in more than this share of the searched chunks does not select candidates on its own. */
const CANDIDATE_DF_FRACTION = 0.05;
/** ... unless the index is small: below this many chunks every term selects. */
const MIN_CANDIDATE_DF = 100;
/** Candidates taken from each ranking before fusion. */
const FUSION_DEPTH = 50;

interface RankedRow { id: number; score: number }

/**
 * BM25 computed in SQL from the index itself: document frequencies of the question's lexemes
 * among the searched chunks (GIN lookups), term frequencies from each candidate's tsvector, and
 * length normalisation from `token_count`. Unlike `ts_rank_cd`, rare words weigh more than
 * common ones, which is what makes natural-language questions rank well (server/bench § squad).
 */
async function rankByBm25(db: Knex, organisationId: string, resourceIds: readonly string[], question: string, limit: number): Promise<RankedRow[]> {
  // The resource ids are bound once (a semi-join), not as three array literals: with thousands
  // of resources the planner would otherwise spend longer estimating them than running the query.
  const result = await db.raw(
    `WITH scope_ids AS MATERIALIZED (
       SELECT DISTINCT unnest(?::text[]) AS id
     ), terms AS (
       SELECT DISTINCT quote_literal(lexeme)::tsquery AS query, lexeme FROM unnest(to_tsvector('english', ?))
     ), stats AS (
       SELECT count(*)::float8 AS n, greatest(avg(token_count), 1)::float8 AS avgdl
       FROM resource_chunks WHERE organisation_id = ? AND resource_id IN (SELECT id FROM scope_ids)
     ), weights AS (
       SELECT t.lexeme, t.query, d.df, ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) AS idf
       FROM terms t CROSS JOIN stats s
       CROSS JOIN LATERAL (
         SELECT count(*)::float8 AS df FROM resource_chunks
         WHERE organisation_id = ? AND resource_id IN (SELECT id FROM scope_ids) AND tsv @@ t.query) d
       WHERE d.df > 0
     ), any_term AS (
       -- Candidates are the chunks holding a selective term. Chunks that share only very common
       -- words with the question cannot outrank them, and skipping them keeps the cost near the
       -- size of the answer set rather than of the index. All terms count when none is selective.
       SELECT string_agg(w.query::text, ' | ')::tsquery AS query FROM weights w CROSS JOIN stats s
       WHERE w.df <= greatest(s.n * ${CANDIDATE_DF_FRACTION}, ${MIN_CANDIDATE_DF})
          OR NOT EXISTS (SELECT 1 FROM weights x WHERE x.df <= greatest(s.n * ${CANDIDATE_DF_FRACTION}, ${MIN_CANDIDATE_DF}))
     )
     SELECT c.id, sum(w.idf * (tf.n * ${K1 + 1}) / (tf.n + ${K1} * (1 - ${B} + ${B} * c.token_count / s.avgdl))) AS score
     FROM any_term a
     JOIN resource_chunks c ON c.tsv @@ a.query
     CROSS JOIN stats s
     CROSS JOIN LATERAL unnest(c.tsv) u
     JOIN weights w ON w.lexeme = u.lexeme
     CROSS JOIN LATERAL (SELECT coalesce(array_length(u.positions, 1), 1)::float8 AS n) tf
     WHERE c.organisation_id = ? AND c.resource_id IN (SELECT id FROM scope_ids)
     GROUP BY c.id
     ORDER BY score DESC, c.id
     LIMIT ?`,
    [[...resourceIds], question, organisationId, organisationId, organisationId, limit],
  );
  return (result.rows as { id: number; score: number }[]).map((row) => ({ id: Number(row.id), score: Number(row.score) }));
}

/** Nearest chunks by cosine distance among the chunks embedded with the same model. */
async function rankByVector(db: Knex, organisationId: string, resourceIds: readonly string[], vector: number[], model: string, limit: number): Promise<RankedRow[]> {
  const result = await db.raw(
    `SELECT id, 1 - (embedding <=> ?::vector) AS score FROM resource_chunks
     WHERE organisation_id = ? AND resource_id = ANY(?::text[]) AND embedding_model = ? AND embedding IS NOT NULL
     ORDER BY embedding <=> ?::vector, id LIMIT ?`,
    [toVectorLiteral(vector), organisationId, [...resourceIds], model, toVectorLiteral(vector), limit],
  );
  return (result.rows as { id: number; score: number }[]).map((row) => ({ id: Number(row.id), score: Number(row.score) }));
}

/** Reciprocal rank fusion: each list contributes 1 / (60 + rank) to an item's score. */
export function fuseByReciprocalRank(lists: readonly RankedRow[][]): RankedRow[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.forEach((row, rank) => scores.set(row.id, (scores.get(row.id) ?? 0) + 1 / (RRF_K + rank + 1)));
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}

async function vectorRanking(db: Knex, organisationId: string, resourceIds: readonly string[], question: string, embedder: Embedder): Promise<RankedRow[]> {
  if (!await hasVectorColumn(db)) return [];
  const [vector] = await embedder.embed([question]);
  return vector ? rankByVector(db, organisationId, resourceIds, vector, embedder.model, FUSION_DEPTH) : [];
}

/**
 * The passages of the given resources that best answer a natural-language question: BM25 over
 * the full-text index and, when an embeddings provider is configured, vector neighbours too,
 * fused by reciprocal rank. Only the organisation's resources are searched.
 */
export async function retrieveChunks(
  db: Knex, organisationId: string, resourceIds: readonly string[], question: string, k: number, options: RetrieveOptions = {},
): Promise<RetrievedChunk[]> {
  if (resourceIds.length === 0 || k <= 0 || !question.trim()) return [];
  let ranked: RankedRow[];
  if (options.embedder) {
    const [lexical, semantic] = await Promise.all([
      rankByBm25(db, organisationId, resourceIds, question, FUSION_DEPTH),
      vectorRanking(db, organisationId, resourceIds, question, options.embedder),
    ]);
    ranked = semantic.length > 0 ? fuseByReciprocalRank([lexical, semantic]) : lexical;
  } else {
    ranked = await rankByBm25(db, organisationId, resourceIds, question, k);
  }
  const top = ranked.slice(0, k);
  if (top.length === 0) return [];
  const rows = await db('resource_chunks as c').join('resources as r', 'r.id', 'c.resource_id')
    .whereIn('c.id', top.map((row) => row.id)).where('c.organisation_id', organisationId)
    .select('c.id', 'c.resource_id', 'r.file_name', 'c.content', 'c.provenance');
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return top.flatMap((row) => {
    const chunk = byId.get(row.id);
    return chunk ? [{ resourceId: chunk.resource_id, fileName: chunk.file_name, content: chunk.content, provenance: chunk.provenance, score: row.score }] : [];
  });
}
