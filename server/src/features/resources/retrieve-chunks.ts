import type { Knex } from 'knex';
import { ChunkTermCache, type SearchScope } from './chunk-term-cache.js';
import { hasVectorColumn } from './ingestion/chunk-index.js';
import { toVectorLiteral, type Embedder } from './ingestion/stages/embed-chunks.js';
import { rankByBm25, type ChunkRow, type RankedRow } from './rank-bm25.js';
import { namedStatement } from '../../db/named-statements.js';
import { RecentMap } from '../../providers/llm/local/recent-map.js';

/** Where a chunk's text came from, for citations. */
export interface ChunkProvenance {
  page?: number;
  url?: string;
  title?: string;
  /** The heading path inside the document, "FAQ › Returns". */
  section?: string;
  startSeconds?: number;
  endSeconds?: number;
  /** The saved answer (a QA resource's pair) the chunk was cut from. */
  pairId?: string;
}

/** One retrieved passage, best first. */
export interface RetrievedChunk {
  /** The chunk's row (its stored sentence vectors are keyed by it). */
  id: number;
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
  /** Synonyms of the question's words: searched by full text beside them, for less (not embedded). */
  synonyms?: string;
}

/** Reciprocal rank fusion constant (Cormack et al. 2009). */
const RRF_K = 60;
/** Candidates taken from each ranking before fusion. */
const FUSION_DEPTH = 50;

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

/** The question's nearest chunks, when some chunk of the scope is embedded with the embedder's model (else the question is not encoded). */
async function vectorRanking(db: Knex, organisationId: string, scope: SearchScope, question: string, embedder: Embedder): Promise<RankedRow[]> {
  const embedded = scope.resources.filter((resource) => (resource.embedded.get(embedder.model) ?? 0) > 0).map((resource) => resource.resourceId);
  if (embedded.length === 0 || !await hasVectorColumn(db)) return [];
  const [vector] = await embedder.embed([question]);
  return vector ? rankByVector(db, organisationId, embedded, vector, embedder.model, FUSION_DEPTH) : [];
}

/**
 * The passages of the given resources that best answer a natural-language question: BM25 over
 * the instance's term index of the resources and, when an embeddings provider is configured and
 * their chunks carry its vectors, vector neighbours too, fused by reciprocal rank (`options.embedder`).
 * Only the organisation's resources are searched.
 */
export async function retrieveChunks(
  db: Knex, organisationId: string, resourceIds: readonly string[], question: string, k: number, options: RetrieveOptions = {},
): Promise<RetrievedChunk[]> {
  if (resourceIds.length === 0 || k <= 0 || !question.trim()) return [];
  const { embedder } = options;
  const cache = ChunkTermCache.of(db);
  const scope = await cache.scope(organisationId, resourceIds, question, options.synonyms);
  let ranked: RankedRow[];
  if (embedder) {
    const [lexical, semantic] = await Promise.all([
      rankByBm25(cache, scope, FUSION_DEPTH),
      // An unreachable embeddings provider degrades answers to full-text ranking, never fails them.
      vectorRanking(db, organisationId, scope, question, embedder).catch(() => []),
    ]);
    ranked = semantic.length > 0 ? fuseByReciprocalRank([lexical, semantic]) : lexical;
  } else {
    ranked = rankByBm25(cache, scope, k);
  }
  const top = ranked.slice(0, k);
  if (top.length === 0) return [];
  const passages = await passagesOf(db, organisationId, top.map((row) => row.id));
  return top.flatMap((row) => {
    const passage = passages.get(row.id);
    const fileName = passage && scope.fileNames.get(passage.resourceId);
    return passage && fileName !== undefined ? [{ id: row.id, ...passage, fileName, score: row.score }] : [];
  });
}

/** A chunk's passage as retrieval hands it on (the resource's name comes from the search scope, as it is now). */
type Passage = Pick<RetrievedChunk, 'resourceId' | 'content' | 'provenance'>;

/** A passage as the instance keeps it: with its organisation, which every use checks. */
interface KeptPassage { organisationId: string; passage: Passage }

/** Characters of passages an instance keeps (at most about 32 MB). */
const PASSAGE_CACHE_CHARS = 16_000_000;

/** Passages by chunk id, per database handle (one per instance). */
const passageCaches = new WeakMap<Knex, RecentMap<number, KeptPassage>>();

/**
 * The passages of the chosen chunks, from the instance's cache or, for those it lacks, in one read.
 * A chunk row never changes once written: a re-index deletes the chunks it does not keep and
 * inserts new rows with new ids, and the search scope never offers a chunk of a resource's older
 * version. So a passage read once serves every later question that chooses it, and a warm instance
 * prepares most answers without this round trip (under a burst each round trip waits a whole turn
 * of a busy event loop). The chunk ids come from the organisation's own scope; all the same, the
 * read filters by organisation and a kept passage serves only its own organisation.
 */
export async function passagesOf(db: Knex, organisationId: string, ids: number[]): Promise<Map<number, Passage>> {
  let cache = passageCaches.get(db);
  if (!cache) passageCaches.set(db, (cache = new RecentMap(PASSAGE_CACHE_CHARS, (kept) => kept.passage.content.length)));
  const found = new Map<number, Passage>();
  const missing: number[] = [];
  for (const id of ids) {
    const kept = cache.get(id);
    if (kept?.organisationId === organisationId) found.set(id, kept.passage);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows: ChunkRow[] = await namedStatement(db, db('resource_chunks').whereRaw('id = ANY(?::bigint[])', [missing]).where('organisation_id', organisationId)
      .select('id', 'resource_id', 'content', 'provenance'), 'chosen_passages');
    for (const row of rows) {
      // Shared by every question that chooses it: read-only.
      found.set(Number(row.id), Object.freeze({ resourceId: row.resource_id, content: row.content, provenance: Object.freeze(row.provenance as ChunkProvenance) }));
    }
  }
  // Those read now join the cache, and the cached ones are the most recently used now.
  for (const [id, passage] of found) cache.set(id, { organisationId, passage });
  return found;
}
