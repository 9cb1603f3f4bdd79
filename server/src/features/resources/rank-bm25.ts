import type { Knex } from 'knex';

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** A term found in more than this share of the searched chunks does not select candidates on its own. */
const CANDIDATE_DF_FRACTION = 0.05;
/** ... unless the index is small: below this many matching chunks every term selects. */
const MIN_CANDIDATE_DF = 100;

/** A chunk id with its relevance (higher is better). */
export interface RankedRow { id: number; score: number }

interface TermStats { lexeme: string; df: number }

/** A lexeme as a quoted tsquery operand (quotes doubled, backslashes escaped). */
const toQueryOperand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

// The resource ids are bound once and joined (a semi-join), not as array literals in several
// places: with thousands of resources the planner would spend longer estimating them than running.
const SCOPE = 'scope_ids AS MATERIALIZED (SELECT DISTINCT unnest(?::text[]) AS id)';

/** Chunk count and mean length of the searched resources, from their per-resource statistics. */
async function collectionStats(db: Knex, organisationId: string, resourceIds: readonly string[]): Promise<{ n: number; avgdl: number }> {
  const result = await db.raw(
    `WITH ${SCOPE} SELECT coalesce(sum(chunk_count), 0)::float8 AS n, coalesce(sum(chunk_tokens), 0)::float8 AS tokens
     FROM resources WHERE organisation_id = ? AND id IN (SELECT id FROM scope_ids)`,
    [[...resourceIds], organisationId],
  );
  const row = (result.rows as { n: number; tokens: number }[])[0]!;
  if (Number(row.n) > 0) return { n: Number(row.n), avgdl: Math.max(1, Number(row.tokens) / Number(row.n)) };
  // Chunks written without swapChunks carry no statistics: count them (slower, still correct).
  const counted = await db.raw(
    `WITH ${SCOPE} SELECT count(*)::float8 AS n, coalesce(avg(nullif(token_count, 0)), avg(length(tsv)), 1)::float8 AS avgdl
     FROM resource_chunks WHERE organisation_id = ? AND resource_id IN (SELECT id FROM scope_ids)`,
    [[...resourceIds], organisationId],
  );
  const fallback = (counted.rows as { n: number; avgdl: number }[])[0]!;
  return { n: Number(fallback.n), avgdl: Math.max(1, Number(fallback.avgdl)) };
}

/** The question's lexemes (English stemming, stop words dropped) with their document frequencies. */
async function termStats(db: Knex, organisationId: string, resourceIds: readonly string[], question: string): Promise<TermStats[]> {
  const result = await db.raw(
    `WITH ${SCOPE}, terms AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', ?)))
     SELECT t.lexeme, (
       SELECT count(*) FROM resource_chunks c
       WHERE c.organisation_id = ? AND c.resource_id IN (SELECT id FROM scope_ids) AND c.tsv @@ quote_literal(t.lexeme)::tsquery
     )::float8 AS df
     FROM terms t`,
    [[...resourceIds], question, organisationId],
  );
  return (result.rows as { lexeme: string; df: number }[]).map((row) => ({ lexeme: row.lexeme, df: Number(row.df) })).filter((term) => term.df > 0);
}

/**
 * BM25 over the full-text index: document frequencies from GIN lookups, term frequencies from each
 * candidate's tsvector, length normalisation from `token_count`, collection statistics from the
 * resources. Unlike `ts_rank_cd`, rare words weigh more than common ones, which is what makes
 * natural-language questions rank well (server/bench/squad-retrieval.bench.ts). Candidates are the
 * chunks holding a selective term: chunks that share only very common words with the question
 * cannot outrank them, and skipping them keeps the cost near the answer set, not the index.
 */
export async function rankByBm25(db: Knex, organisationId: string, resourceIds: readonly string[], question: string, limit: number): Promise<RankedRow[]> {
  const [terms, stats] = await Promise.all([
    termStats(db, organisationId, resourceIds, question),
    collectionStats(db, organisationId, resourceIds),
  ]);
  if (terms.length === 0 || stats.n === 0) return [];
  const idf = terms.map((term) => Math.log(1 + (stats.n - term.df + 0.5) / (term.df + 0.5)));
  const threshold = Math.max(stats.n * CANDIDATE_DF_FRACTION, MIN_CANDIDATE_DF);
  const selective = terms.filter((term) => term.df <= threshold);
  const candidateQuery = (selective.length > 0 ? selective : terms).map((term) => toQueryOperand(term.lexeme)).join(' | ');
  const result = await db.raw(
    `WITH ${SCOPE}, weights AS (SELECT * FROM unnest(?::text[], ?::float8[]) AS w(lexeme, idf))
     SELECT c.id, sum(w.idf * (tf.n * ${K1 + 1}) / (tf.n + ${K1} * (1 - ${B} + ${B} * c.token_count / ?::float8))) AS score
     FROM resource_chunks c
     CROSS JOIN LATERAL unnest(c.tsv) u
     JOIN weights w ON w.lexeme = u.lexeme
     CROSS JOIN LATERAL (SELECT coalesce(array_length(u.positions, 1), 1)::float8 AS n) tf
     WHERE c.tsv @@ ?::tsquery AND c.organisation_id = ? AND c.resource_id IN (SELECT id FROM scope_ids)
     GROUP BY c.id
     ORDER BY score DESC, c.id
     LIMIT ?`,
    [[...resourceIds], terms.map((term) => term.lexeme), idf, stats.avgdl, candidateQuery, organisationId, limit],
  );
  return (result.rows as { id: number; score: number }[]).map((row) => ({ id: Number(row.id), score: Number(row.score) }));
}
