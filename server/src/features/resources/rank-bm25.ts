import type { Knex } from 'knex';
import type { ChunkTermCache, QuestionTerm, SearchScope } from './chunk-term-cache.js';

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** A term found in more than this share of the searched chunks does not select candidates on its own. */
const CANDIDATE_DF_FRACTION = 0.05;
/** ... unless the index is small: below this many matching chunks every term selects. */
const MIN_CANDIDATE_DF = 100;
/** ... and never a term found in this many chunks or more, however big the index. */
const MAX_CANDIDATE_DF = 1000;
/** The best BM25 candidates re-ranked with the proximity bonus. */
const RERANK_DEPTH = 30;
/** Score added per pair of adjacent question words found next to each other (SQuAD: R@1 +1 point). */
const PROXIMITY_BONUS = 2;

/** A chunk id with its relevance (higher is better). */
export interface RankedRow { id: number; score: number }

/** Chunks best first, and the passages of those read on the way. */
export interface Bm25Ranking { ranked: RankedRow[]; rows: Map<number, ChunkRow> }

/** A question lexeme found in the scope: its postings per resource (aligned with the scope's resources) and its document frequency. */
interface TermPostings extends QuestionTerm { ranges: [number, number][]; df: number }

/** A lexeme as a quoted tsquery operand (quotes doubled, backslashes escaped). */
const toQueryOperand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * BM25 over the instance's term index of the scope (chunk-term-cache.ts): exact document
 * frequencies, term frequencies and chunk lengths as the full-text vectors hold them, collection
 * statistics over the scope. Unlike `ts_rank_cd`, rare words weigh more than common ones, which is
 * what makes natural-language questions rank well (server/bench/squad-retrieval.bench.ts).
 * Candidates are the chunks holding a selective term: chunks that share only very common words
 * with the question cannot outrank them (a question of common words only takes the candidates of
 * its rarest one). The best are re-ranked with a phrase bonus read from the full-text index, and
 * their passages read with it.
 */
export async function rankByBm25(db: Knex, cache: ChunkTermCache, scope: SearchScope, limit: number): Promise<Bm25Ranking> {
  const none = { ranked: [], rows: new Map() };
  const n = scope.resources.reduce((sum, resource) => sum + resource.ids.length, 0);
  if (n === 0) return none;
  const avgdl = Math.max(1, scope.resources.reduce((sum, resource) => sum + resource.totalTokens, 0) / n);
  const terms: TermPostings[] = scope.terms.map((term) => {
    const ranges = cache.postingRanges(scope.resources, term.lexeme);
    return { ...term, ranges, df: ranges.reduce((sum, [start, end]) => sum + end - start, 0) };
  }).filter((term) => term.df > 0);
  if (terms.length === 0) return none;
  const idf = terms.map((term) => Math.log(1 + (n - term.df + 0.5) / (term.df + 0.5)));
  const threshold = Math.max(Math.min(n * CANDIDATE_DF_FRACTION, MAX_CANDIDATE_DF - 1), MIN_CANDIDATE_DF);
  const selective = terms.filter((term) => term.df <= threshold);
  // Only common words: the rarest of them picks the candidates.
  const selectors = selective.length > 0 ? selective : [terms.reduce((rarest, term) => (term.df < rarest.df ? term : rarest))];
  const ranked: RankedRow[] = [];
  scope.resources.forEach((resource, r) => {
    if (selectors.every((term) => term.ranges[r]![0] === term.ranges[r]![1])) return;
    const scores = new Map<number, number>();
    for (const term of selectors) {
      const [start, end] = term.ranges[r]!;
      for (let p = start; p < end; p++) scores.set(resource.postings[p]!, 0);
    }
    terms.forEach((term, t) => {
      const [start, end] = term.ranges[r]!;
      for (let p = start; p < end; p++) {
        const chunk = resource.postings[p]!;
        const score = scores.get(chunk);
        if (score === undefined) continue;
        const tf = resource.frequencies[p]!;
        scores.set(chunk, score + idf[t]! * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * resource.tokens[chunk]! / avgdl)));
      }
    });
    for (const [chunk, score] of scores) ranked.push({ id: resource.ids[chunk]!, score });
  });
  ranked.sort((a, b) => b.score - a.score || a.id - b.id);
  const reranked = await withProximityBonus(db, scope.organisationId, ranked.slice(0, Math.max(limit, RERANK_DEPTH)), terms);
  return { ranked: reranked.ranked.slice(0, limit), rows: reranked.rows };
}

/** A candidate chunk as retrieval returns it, read with its phrase bonus. */
export interface ChunkRow { id: string | number; resource_id: string; file_name: string; content: string; provenance: unknown }

/**
 * Adds a bonus for each pair of adjacent question words that a chunk holds as a phrase (the
 * same distance apart, stop words included: "Super Bowl 50", "Duchy of Normandy"). BM25 ignores
 * word order; this restores a little of it, cheaply, on the top candidates only. The candidates'
 * passages are read in the same query.
 */
async function withProximityBonus(db: Knex, organisationId: string, ranked: RankedRow[], terms: QuestionTerm[]): Promise<Bm25Ranking> {
  const ordered = [...terms].sort((a, b) => a.position - b.position);
  const phrases = ordered.slice(1).map((term, index) => {
    const previous = ordered[index]!;
    return `${toQueryOperand(previous.lexeme)} <${Math.min(term.position - previous.position, 3)}> ${toQueryOperand(term.lexeme)}`;
  });
  if (ranked.length === 0) return { ranked, rows: new Map() };
  const result = await db.raw(
    `SELECT c.id, c.resource_id, r.file_name, c.content, c.provenance,
       (SELECT count(*) FROM unnest(?::tsquery[]) AS p(phrase) WHERE c.tsv @@ p.phrase)::float8 AS hits
     FROM resource_chunks c JOIN resources r ON r.id = c.resource_id
     WHERE c.id = ANY(?::bigint[]) AND c.organisation_id = ?`,
    [phrases, ranked.map((row) => row.id), organisationId],
  );
  const rows = result.rows as (ChunkRow & { hits: number })[];
  const hits = new Map(rows.map((row) => [Number(row.id), Number(row.hits)]));
  return {
    ranked: ranked.map((row) => ({ id: row.id, score: row.score + PROXIMITY_BONUS * (hits.get(row.id) ?? 0) })).sort((a, b) => b.score - a.score || a.id - b.id),
    rows: new Map(rows.map((row) => [Number(row.id), row])),
  };
}
