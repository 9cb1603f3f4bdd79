import type { Knex } from 'knex';

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** A term found in more than this share of the searched chunks does not select candidates on its own. */
const CANDIDATE_DF_FRACTION = 0.05;
/** ... unless the index is small: below this many matching chunks every term selects. */
const MIN_CANDIDATE_DF = 100;
/** Exact document-frequency counting stops here; such a term is common, and weighs little. */
const DF_CAP = 1000;
/** The best BM25 candidates re-ranked with the proximity bonus. */
const RERANK_DEPTH = 30;
/** Score added per pair of adjacent question words found next to each other (SQuAD: R@1 +1 point). */
const PROXIMITY_BONUS = 2;
/** How many searched chunks the frequency estimate of a common term reads. */
const SAMPLE_ROWS = 5000;
/** ... reading at most this many rows of the chunk table. */
const SAMPLE_MAX_READ = 50_000;

/** A chunk id with its relevance (higher is better). */
export interface RankedRow { id: number; score: number }

/** A question lexeme: its first position in the question and its document frequency. */
interface TermStats { lexeme: string; position: number; df: number }

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

/**
 * The question's lexemes (English stemming, stop words dropped) with their document frequencies.
 * Counting stops at DF_CAP per term (GIN lookups plus heap checks cost per matching chunk); the
 * frequency of a term that reaches it is estimated from a sample of the searched chunks instead.
 */
async function termStats(db: Knex, organisationId: string, resourceIds: readonly string[], question: string, n: number): Promise<TermStats[]> {
  const result = await db.raw(
    `WITH ${SCOPE}, terms AS (SELECT lexeme, positions[1] AS position FROM unnest(to_tsvector('english', ?)))
     SELECT t.lexeme, t.position, (
       SELECT count(*) FROM (
         SELECT 1 FROM resource_chunks c
         WHERE c.organisation_id = ? AND c.resource_id IN (SELECT id FROM scope_ids) AND c.tsv @@ quote_literal(t.lexeme)::tsquery
         LIMIT ${DF_CAP}) matches
     )::float8 AS df
     FROM terms t`,
    [[...resourceIds], question, organisationId],
  );
  const terms = (result.rows as { lexeme: string; position: number; df: number }[])
    .map((row) => ({ lexeme: row.lexeme, position: Number(row.position), df: Number(row.df) }));
  const capped = terms.filter((term) => term.df >= DF_CAP);
  if (capped.length > 0) {
    const estimates = await sampledFrequencies(db, organisationId, resourceIds, capped.map((term) => term.lexeme), n);
    for (const term of capped) term.df = Math.min(n, Math.max(DF_CAP, estimates.get(term.lexeme) ?? DF_CAP));
  }
  return terms.filter((term) => term.df > 0);
}

/** Document frequencies estimated from a page sample (TABLESAMPLE SYSTEM) of the searched chunks. */
async function sampledFrequencies(db: Knex, organisationId: string, resourceIds: readonly string[], lexemes: string[], n: number): Promise<Map<string, number>> {
  const size = await db.raw("SELECT greatest(reltuples, 1)::float8 AS rows FROM pg_class WHERE relname = 'resource_chunks'");
  const tableRows = Number((size.rows as { rows: number }[])[0]?.rows ?? 1);
  // Enough of the table to hold about SAMPLE_ROWS searched chunks, but never more than
  // SAMPLE_MAX_READ rows in all (a small scope in a big table gets a thinner sample).
  const percent = Math.max(0.001, Math.min(100, (100 * SAMPLE_ROWS) / n, (100 * SAMPLE_MAX_READ) / tableRows));
  const result = await db.raw(
    // The sample is materialised first: as a join input the planner would re-sample per resource id.
    `WITH ${SCOPE}, sample AS MATERIALIZED (
       SELECT resource_id, tsv FROM resource_chunks TABLESAMPLE SYSTEM (?) WHERE organisation_id = ?
     ), scoped AS MATERIALIZED (
       SELECT s.tsv FROM sample s JOIN scope_ids i ON i.id = s.resource_id
     )
     SELECT t.lexeme, count(*) FILTER (WHERE s.tsv @@ quote_literal(t.lexeme)::tsquery)::float8 AS hits, count(*)::float8 AS rows
     FROM scoped s CROSS JOIN unnest(?::text[]) AS t(lexeme) GROUP BY t.lexeme`,
    [[...resourceIds], percent, organisationId, lexemes],
  );
  return new Map((result.rows as { lexeme: string; hits: number; rows: number }[])
    .filter((row) => Number(row.rows) > 0).map((row) => [row.lexeme, Math.round((Number(row.hits) / Number(row.rows)) * n)]));
}

/**
 * BM25 over the full-text index: document frequencies from GIN lookups, term frequencies from each
 * candidate's tsvector, length normalisation from `token_count`, collection statistics from the
 * resources. Unlike `ts_rank_cd`, rare words weigh more than common ones, which is what makes
 * natural-language questions rank well (server/bench/squad-retrieval.bench.ts). Candidates are the
 * chunks holding a selective term: chunks that share only very common words with the question
 * cannot outrank them, and skipping them keeps the cost near the answer set, not the index
 * (a question of common words only takes the candidates of its rarest one).
 */
export async function rankByBm25(db: Knex, organisationId: string, resourceIds: readonly string[], question: string, limit: number): Promise<RankedRow[]> {
  const stats = await collectionStats(db, organisationId, resourceIds);
  if (stats.n === 0) return [];
  const terms = await termStats(db, organisationId, resourceIds, question, stats.n);
  if (terms.length === 0) return [];
  const idf = terms.map((term) => Math.log(1 + (stats.n - term.df + 0.5) / (term.df + 0.5)));
  const threshold = Math.max(Math.min(stats.n * CANDIDATE_DF_FRACTION, DF_CAP - 1), MIN_CANDIDATE_DF);
  const selective = terms.filter((term) => term.df <= threshold);
  // Only common words: the rarest of them picks the candidates.
  const selectors = selective.length > 0 ? selective : [terms.reduce((rarest, term) => (term.df < rarest.df ? term : rarest))];
  const candidateQuery = selectors.map((term) => toQueryOperand(term.lexeme)).join(' | ');
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
    [[...resourceIds], terms.map((term) => term.lexeme), idf, stats.avgdl, candidateQuery, organisationId, Math.max(limit, RERANK_DEPTH)],
  );
  const ranked = (result.rows as { id: number; score: number }[]).map((row) => ({ id: Number(row.id), score: Number(row.score) }));
  return (await withProximityBonus(db, ranked, terms)).slice(0, limit);
}

/**
 * Adds a bonus for each pair of adjacent question words that a chunk holds as a phrase (the
 * same distance apart, stop words included: "Super Bowl 50", "Duchy of Normandy"). BM25 ignores
 * word order; this restores a little of it, cheaply, on the top candidates only.
 */
async function withProximityBonus(db: Knex, ranked: RankedRow[], terms: TermStats[]): Promise<RankedRow[]> {
  const ordered = [...terms].sort((a, b) => a.position - b.position);
  const phrases = ordered.slice(1).map((term, index) => {
    const previous = ordered[index]!;
    return `${toQueryOperand(previous.lexeme)} <${Math.min(term.position - previous.position, 3)}> ${toQueryOperand(term.lexeme)}`;
  });
  if (phrases.length === 0 || ranked.length < 2) return ranked;
  const result = await db.raw(
    `SELECT c.id, count(*)::float8 AS hits FROM resource_chunks c CROSS JOIN unnest(?::text[]) AS p(phrase)
     WHERE c.id = ANY(?::bigint[]) AND c.tsv @@ p.phrase::tsquery GROUP BY c.id`,
    [phrases, ranked.map((row) => row.id)],
  );
  const hits = new Map((result.rows as { id: number; hits: number }[]).map((row) => [Number(row.id), Number(row.hits)]));
  return ranked.map((row) => ({ id: row.id, score: row.score + PROXIMITY_BONUS * (hits.get(row.id) ?? 0) }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
