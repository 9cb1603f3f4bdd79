import type { Knex } from 'knex';
import { SingleFlight } from '../../db/single-flight.js';
import { hasVectorColumn } from './ingestion/chunk-index.js';

/**
 * One resource's chunks as an inverted index: for each lexeme of its full-text vectors, the chunks
 * holding it and how often. Immutable for a given `version` (20261124A bumps it on any change).
 */
export interface ResourceTerms {
  resourceId: string;
  organisationId: string;
  version: string;
  /** Chunk ids, by chunk index. */
  ids: Float64Array;
  /** `token_count` of each chunk (BM25 length normalisation). */
  tokens: Uint32Array;
  totalTokens: number;
  /** Chunks embedded, per embeddings model. */
  embedded: ReadonlyMap<string, number>;
  /** Sorted lexeme numbers (of the cache's dictionary); lexeme i's postings are offsets[i]..offsets[i + 1]. */
  lexemes: Int32Array;
  offsets: Uint32Array;
  /** Chunk index and term frequency of each posting, by chunk index within a lexeme. */
  postings: Uint32Array;
  frequencies: Uint16Array;
  /** The positions of each posting's lexeme in its chunk, ascending: posting p's are `positions[positionStarts[p]..positionStarts[p + 1]]`. */
  positionStarts: Uint32Array;
  positions: Uint16Array;
}

/** A question's lexeme (English stemming, stop words dropped) and its first position in the question. */
export interface QuestionTerm { lexeme: string; position: number }

/** What one question searches: its lexemes and the term indexes of the resources in scope. */
export interface SearchScope {
  organisationId: string;
  terms: QuestionTerm[];
  resources: ResourceTerms[];
}

/** Postings kept per instance (about 16 bytes each with their positions): about 1.2M SQuAD-sized chunks' worth of lexemes. */
const MAX_POSTINGS = 12_000_000;

/** PostgreSQL keeps at most this many positions of a lexeme in a full-text vector. */
const MAX_POSITIONS = 256;
const scanned = new Uint16Array(MAX_POSITIONS);

/** Chunks indexed between two yields to the event loop (a few milliseconds' work). */
const BUILD_SLICE = 100;

/**
 * Visits the lexemes of a tsvector's text form (`'bowl':2 'it''s':5,9A 'x'`) with their positions
 * (`positions[0..count)`, reused between calls; none for a stripped lexeme). A scanner rather than
 * a regular expression: a cold instance parses every chunk of a chatbot on its first question,
 * 10,000 chunks in a burst's first second (issue 12).
 */
export function scanTsvector(text: string, visit: (lexeme: string, positions: Uint16Array, count: number) => void): void {
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== 39 /* ' */) { i++; continue; }
    let lexeme = '';
    let start = ++i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 92 /* \ */) { lexeme += text.slice(start, i); start = ++i; continue; }
      if (c !== 39) continue;
      lexeme += text.slice(start, i);
      if (text.charCodeAt(i + 1) !== 39) break;
      // '' is a quote inside the lexeme.
      start = ++i;
    }
    i++;
    let count = 0;
    if (text.charCodeAt(i) === 58 /* : */) {
      let position = 0;
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 48 && c <= 57) position = position * 10 + c - 48;
        else if (c === 44 /* , */ || c === 32 /* space */) {
          if (count < MAX_POSITIONS) scanned[count++] = position;
          position = 0;
          if (c === 32) break;
        }
        // A weight letter (A–D) after a position is skipped.
      }
      if (i >= text.length && count < MAX_POSITIONS) scanned[count++] = position;
    }
    visit(lexeme, scanned, count);
  }
}

/** The lexemes of a tsvector's text form with their positions (see {@link scanTsvector}). */
export function parseTsvector(text: string): [string, number[]][] {
  const out: [string, number[]][] = [];
  scanTsvector(text, (lexeme, positions, count) => out.push([lexeme, Array.from(positions.subarray(0, count))]));
  return out;
}

function binarySearch(sorted: Int32Array, value: number): number {
  let low = 0, high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = sorted[mid]!;
    if (at === value) return mid;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * Retrieval's per-instance cache of immutable chunk data: each resource's term index, loaded on
 * first use and kept while its `chunk_version` stays the same. Every question reads the versions
 * of its resources (with the question's lexemes, in one round trip), so a re-indexed or deleted
 * resource is reloaded or dropped at once, on every instance, on PGlite and PostgreSQL alike.
 * Least recently used resources leave first beyond {@link MAX_POSTINGS}.
 */
export class ChunkTermCache {
  private static readonly caches = new WeakMap<Knex, ChunkTermCache>();
  private readonly resources = new Map<string, ResourceTerms>();
  private readonly dictionary = new Map<string, number>();
  private readonly loading = new SingleFlight<ResourceTerms | undefined>();
  private postings = 0;

  private constructor(private readonly db: Knex, private readonly maxPostings: number) {}

  /** The cache of this database handle (one per instance). */
  static of(db: Knex): ChunkTermCache {
    let cache = ChunkTermCache.caches.get(db);
    if (!cache) ChunkTermCache.caches.set(db, (cache = new ChunkTermCache(db, MAX_POSTINGS)));
    return cache;
  }

  /** Resources cached now (for tests). */
  get size(): number {
    return this.resources.size;
  }

  /** The question's lexemes and the current term index of each of the organisation's resources among `resourceIds`. */
  async scope(organisationId: string, resourceIds: readonly string[], question: string): Promise<SearchScope> {
    const result = await this.db.raw(
      // Primary-key probes: PGlite reads 1,000 resources' versions in half the time of a semi-join against a materialised CTE.
      `SELECT
         (SELECT coalesce(json_agg(json_build_array(id, chunk_version::text)), '[]') FROM resources
          WHERE id = ANY(?::text[]) AND organisation_id = ?) AS versions,
         (SELECT coalesce(json_agg(json_build_array(lexeme, positions[1])), '[]') FROM unnest(to_tsvector('english', ?))) AS terms`,
      [[...resourceIds], organisationId, question],
    );
    const row = (result.rows as { versions: [string, string][] | string; terms: [string, number][] | string }[])[0]!;
    const versions = (typeof row.versions === 'string' ? JSON.parse(row.versions) : row.versions) as [string, string][];
    const terms = (typeof row.terms === 'string' ? JSON.parse(row.terms) : row.terms) as [string, number][];
    // A resource asked for and not found is deleted (or another organisation's): its entry goes.
    const found = new Set(versions.map(([id]) => id));
    for (const id of resourceIds) if (!found.has(id) && this.resources.get(id)?.organisationId === organisationId) this.forget(id);
    const resources: ResourceTerms[] = [];
    for (const [id, version] of versions) {
      // A cached resource is taken without a microtask hop: a chatbot may have thousands.
      const current = this.cached(id, version) ?? await this.loadOnce(organisationId, id, version);
      if (current) resources.push(current);
    }
    return { organisationId, terms: terms.map(([lexeme, position]) => ({ lexeme, position: Number(position) })), resources };
  }

  /** The postings of `lexeme` in each resource, as ranges of their posting arrays (empty where absent). */
  postingRanges(resources: readonly ResourceTerms[], lexeme: string): [number, number][] {
    const number = this.dictionary.get(lexeme);
    return resources.map((resource) => {
      const index = number === undefined ? -1 : binarySearch(resource.lexemes, number);
      return index < 0 ? [0, 0] : [resource.offsets[index]!, resource.offsets[index + 1]!];
    });
  }

  /** The positions of the lexeme whose postings in `resource` are `[start, end)` in its chunk `chunk` (none when it does not hold it). */
  static positionsIn(resource: ResourceTerms, [start, end]: [number, number], chunk: number): Uint16Array {
    let low = start, high = end - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = resource.postings[mid]!;
      if (at === chunk) return resource.positions.subarray(resource.positionStarts[mid]!, resource.positionStarts[mid + 1]!);
      if (at < chunk) low = mid + 1;
      else high = mid - 1;
    }
    return resource.positions.subarray(0, 0);
  }

  /** The cached index of `version`, most recently used now. */
  private cached(resourceId: string, version: string): ResourceTerms | undefined {
    const cached = this.resources.get(resourceId);
    if (cached?.version !== version) return undefined;
    this.resources.delete(resourceId);
    this.resources.set(resourceId, cached);
    return cached;
  }

  /** Loads a resource's index, once however many questions ask for it at the same moment. */
  private loadOnce(organisationId: string, resourceId: string, version: string): Promise<ResourceTerms | undefined> {
    return this.loading.run(`${organisationId}/${resourceId}/${version}`, () => this.load(organisationId, resourceId));
  }

  private async load(organisationId: string, resourceId: string): Promise<ResourceTerms | undefined> {
    const embedding = await hasVectorColumn(this.db) ? 'c.embedding_model' : 'NULL';
    // One statement, one snapshot: the version read is the version of the chunks read.
    const result = await this.db.raw(
      `SELECT r.chunk_version::text AS version, c.id, c.token_count, c.tsv::text AS tsv, ${embedding} AS model
       FROM resources r LEFT JOIN resource_chunks c ON c.resource_id = r.id AND c.organisation_id = r.organisation_id
       WHERE r.id = ? AND r.organisation_id = ? ORDER BY c.id`,
      [resourceId, organisationId],
    );
    const rows = (result.rows as { version: string; id: string | number | null; token_count: number; tsv: string | null; model: string | null }[]);
    if (rows.length === 0) return undefined;
    const entry = await this.build(resourceId, organisationId, rows[0]!.version, rows.filter((row) => row.id !== null));
    this.remember(entry);
    return entry;
  }

  /** Builds the index, yielding to the event loop every {@link BUILD_SLICE} chunks: a big resource must not stall other requests (or `/health`). */
  private async build(resourceId: string, organisationId: string, version: string, rows: { id: string | number | null; token_count: number; tsv: string | null; model: string | null }[]): Promise<ResourceTerms> {
    // Per lexeme: (chunk, number of positions, start of the positions in `staged`) for each chunk holding it.
    const byLexeme = new Map<number, number[]>();
    const embedded = new Map<string, number>();
    const ids = new Float64Array(rows.length);
    const tokens = new Uint32Array(rows.length);
    let staged = new Uint16Array(1 << 16);
    let stagedLength = 0;
    let totalTokens = 0;
    for (const [chunk, row] of rows.entries()) {
      if (chunk > 0 && chunk % BUILD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      ids[chunk] = Number(row.id);
      tokens[chunk] = Number(row.token_count);
      totalTokens += tokens[chunk]!;
      if (row.model) embedded.set(row.model, (embedded.get(row.model) ?? 0) + 1);
      scanTsvector(row.tsv ?? '', (lexeme, positions, count) => {
        let number = this.dictionary.get(lexeme);
        if (number === undefined) this.dictionary.set(lexeme, (number = this.dictionary.size));
        let list = byLexeme.get(number);
        if (!list) byLexeme.set(number, (list = []));
        if (stagedLength + count > staged.length) {
          const grown = new Uint16Array(staged.length * 2);
          grown.set(staged);
          staged = grown;
        }
        staged.set(positions.subarray(0, count), stagedLength);
        list.push(chunk, count, stagedLength);
        stagedLength += count;
      });
    }
    const lexemes = Int32Array.from([...byLexeme.keys()].sort((a, b) => a - b));
    const offsets = new Uint32Array(lexemes.length + 1);
    lexemes.forEach((number, i) => { offsets[i + 1] = offsets[i]! + byLexeme.get(number)!.length / 3; });
    const postings = new Uint32Array(offsets[lexemes.length]!);
    const frequencies = new Uint16Array(postings.length);
    const positionStarts = new Uint32Array(postings.length + 1);
    const positions = new Uint16Array(stagedLength);
    let at = 0;
    lexemes.forEach((number, i) => {
      const list = byLexeme.get(number)!;
      for (let j = 0, p = offsets[i]!; j < list.length; j += 3, p++) {
        const count = list[j + 1]!;
        postings[p] = list[j]!;
        // A lexeme stripped of its positions still occurs once.
        frequencies[p] = Math.max(1, count);
        positionStarts[p] = at;
        positions.set(staged.subarray(list[j + 2]!, list[j + 2]! + count), at);
        at += count;
      }
    });
    positionStarts[postings.length] = at;
    return { resourceId, organisationId, version, ids, tokens, totalTokens, embedded, lexemes, offsets, postings, frequencies, positionStarts, positions };
  }

  private remember(entry: ResourceTerms): void {
    // Two loads that crossed a re-index: the newer chunks stay.
    const cached = this.resources.get(entry.resourceId);
    if (cached && BigInt(cached.version) > BigInt(entry.version)) return;
    this.forget(entry.resourceId);
    this.resources.set(entry.resourceId, entry);
    this.postings += entry.postings.length;
    for (const id of this.resources.keys()) {
      if (this.postings <= this.maxPostings || id === entry.resourceId) break;
      this.forget(id);
    }
  }

  private forget(resourceId: string): void {
    const entry = this.resources.get(resourceId);
    if (!entry) return;
    this.resources.delete(resourceId);
    this.postings -= entry.postings.length;
  }
}
