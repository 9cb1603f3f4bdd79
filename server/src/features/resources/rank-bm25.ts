import { ChunkTermCache, type QuestionTerm, type ResourceTerms, type SearchScope } from './chunk-term-cache.js';

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

/** A question lexeme found in the scope: its postings per resource (aligned with the scope's resources) and its document frequency. */
interface TermPostings extends QuestionTerm { ranges: [number, number][]; df: number }

/** A candidate chunk: its row id and score, and where its postings are (the resource's place in the scope, the chunk's index in it). */
interface Candidate extends RankedRow { resource: number; chunk: number }

/**
 * BM25 over the instance's term index of the scope (chunk-term-cache.ts): exact document
 * frequencies, term frequencies and chunk lengths as the full-text vectors hold them, collection
 * statistics over the scope. Unlike `ts_rank_cd`, rare words weigh more than common ones, which is
 * what makes natural-language questions rank well (server/bench/squad-retrieval.bench.ts).
 * Candidates are the chunks holding a selective term: chunks that share only very common words
 * with the question cannot outrank them (a question of common words only takes the candidates of
 * its rarest one). The best are re-ranked with a phrase bonus from the index's positions. All in
 * process: the passages of the chunks finally chosen are read by the caller.
 */
export function rankByBm25(cache: ChunkTermCache, scope: SearchScope, limit: number): RankedRow[] {
  const n = scope.resources.reduce((sum, resource) => sum + resource.ids.length, 0);
  if (n === 0) return [];
  const avgdl = Math.max(1, scope.resources.reduce((sum, resource) => sum + resource.totalTokens, 0) / n);
  const terms: TermPostings[] = scope.terms.map((term) => {
    const ranges = cache.postingRanges(scope.resources, term.lexeme);
    return { ...term, ranges, df: ranges.reduce((sum, [start, end]) => sum + end - start, 0) };
  }).filter((term) => term.df > 0);
  if (terms.length === 0) return [];
  const idf = terms.map((term) => (term.weight ?? 1) * Math.log(1 + (n - term.df + 0.5) / (term.df + 0.5)));
  const threshold = Math.max(Math.min(n * CANDIDATE_DF_FRACTION, MAX_CANDIDATE_DF - 1), MIN_CANDIDATE_DF);
  const selective = terms.filter((term) => term.df <= threshold);
  // Only common words: the rarest of them picks the candidates.
  const selectors = selective.length > 0 ? selective : [terms.reduce((rarest, term) => (term.df < rarest.df ? term : rarest))];
  const best = new BestCandidates(Math.max(limit, RERANK_DEPTH));
  scope.resources.forEach((resource, r) => {
    if (selectors.every((term) => term.ranges[r]![0] === term.ranges[r]![1])) return;
    const { scores, isCandidate, candidates } = scratchFor(resource.ids.length);
    let count = 0;
    for (const term of selectors) {
      const [start, end] = term.ranges[r]!;
      for (let p = start; p < end; p++) {
        const chunk = resource.postings[p]!;
        if (isCandidate[chunk] === generation) continue;
        isCandidate[chunk] = generation;
        scores[chunk] = 0;
        candidates[count++] = chunk;
      }
    }
    for (let t = 0; t < terms.length; t++) {
      const [start, end] = terms[t]!.ranges[r]!;
      for (let p = start; p < end; p++) {
        const chunk = resource.postings[p]!;
        if (isCandidate[chunk] !== generation) continue;
        const tf = resource.frequencies[p]!;
        scores[chunk] = scores[chunk]! + idf[t]! * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * resource.tokens[chunk]! / avgdl));
      }
    }
    for (let i = 0; i < count; i++) {
      const chunk = candidates[i]!;
      best.offer(resource.ids[chunk]!, scores[chunk]!, r, chunk);
    }
  });
  const reranked = withProximityBonus(scope.resources, best.sorted(), terms).sort(byScore);
  return reranked.slice(0, limit).map(({ id, score }) => ({ id, score }));
}

/** Best first; equal scores by chunk id, so rankings are stable. */
const byScore = (a: RankedRow, b: RankedRow) => b.score - a.score || a.id - b.id;

/**
 * Scratch space for scoring one resource's candidates, kept between questions (ranking is
 * synchronous, so one set serves every call): a score per chunk, which chunks are candidates of
 * the resource being scored (those marked with the current generation, so nothing is cleared
 * between resources), and the candidates in the order found.
 */
let scratch = { scores: new Float64Array(0), isCandidate: new Uint32Array(0), candidates: new Uint32Array(0) };
let generation = 0;

function scratchFor(chunks: number): typeof scratch {
  if (scratch.scores.length < chunks) {
    const size = Math.max(chunks, scratch.scores.length * 2);
    scratch = { scores: new Float64Array(size), isCandidate: new Uint32Array(size), candidates: new Uint32Array(size) };
    generation = 0;
  }
  if (generation === 0xffffffff) {
    scratch.isCandidate.fill(0);
    generation = 0;
  }
  generation++;
  return scratch;
}

/**
 * The `size` best candidates offered, by {@link byScore}: the same as sorting all of them and
 * taking the first `size`, without sorting (or allocating) the many that cannot make it. Kept
 * sorted best first; most offers lose to the worst kept and cost one comparison.
 */
export class BestCandidates {
  private readonly kept: Candidate[] = [];

  constructor(private readonly size: number) {}

  offer(id: number, score: number, resource: number, chunk: number): void {
    const { kept, size } = this;
    if (size <= 0) return;
    if (kept.length === size) {
      const worst = kept[size - 1]!;
      if (score < worst.score || (score === worst.score && id > worst.id)) return;
      kept.pop();
    }
    let at = kept.length;
    while (at > 0) {
      const above = kept[at - 1]!;
      if (above.score > score || (above.score === score && above.id < id)) break;
      at--;
    }
    kept.splice(at, 0, { id, score, resource, chunk });
  }

  /** The candidates kept, best first. */
  sorted(): Candidate[] {
    return [...this.kept];
  }
}

/**
 * Whether chunk `chunk` of `resource` holds the lexeme with postings `first` and, `distance`
 * positions after it, the lexeme with postings `second`: what the full-text phrase query
 * `'first' <distance> 'second'` matches.
 */
export function holdsPhrase(resource: ResourceTerms, chunk: number, first: [number, number], second: [number, number], distance: number): boolean {
  const before = ChunkTermCache.positionsIn(resource, first, chunk);
  const after = ChunkTermCache.positionsIn(resource, second, chunk);
  let j = 0;
  for (let i = 0; i < before.length; i++) {
    const wanted = before[i]! + distance;
    while (j < after.length && after[j]! < wanted) j++;
    if (j === after.length) return false;
    if (after[j] === wanted) return true;
  }
  return false;
}

/**
 * Adds a bonus for each pair of adjacent question words that a chunk holds as a phrase: the same
 * distance apart (at most 3), stop words included, as the phrase query `'a' <d> 'b'` of full-text
 * search matches ("Super Bowl 50", "Duchy of Normandy"). BM25 ignores word order; this restores
 * a little of it, cheaply, on the top candidates only, from the positions in the term index.
 */
function withProximityBonus(resources: readonly ResourceTerms[], candidates: Candidate[], terms: TermPostings[]): Candidate[] {
  const ordered = terms.filter((term) => term.weight === undefined).sort((a, b) => a.position - b.position);
  const phrases = ordered.slice(1).map((term, index) => ({ first: ordered[index]!, second: term, distance: Math.min(term.position - ordered[index]!.position, 3) }));
  return candidates.map((candidate) => {
    const r = candidate.resource;
    const hits = phrases.filter(({ first, second, distance }) => holdsPhrase(resources[r]!, candidate.chunk, first.ranges[r]!, second.ranges[r]!, distance)).length;
    return { ...candidate, score: candidate.score + PROXIMITY_BONUS * hits };
  });
}

/** A chosen chunk's passage as retrieval reads it. */
export interface ChunkRow { id: string | number; resource_id: string; content: string; provenance: unknown }
