import type { Knex } from 'knex';
import { SingleFlight } from '../../db/single-flight.js';
import { hasVectorColumn } from './ingestion/chunk-index.js';
import { ScopeReads } from './scope-reads.js';

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

/**
 * A question's lexeme (English stemming, stop words dropped) and its first position in the
 * question; a synonym searched beside the question's words has a `weight` below 1 and no place in
 * its phrases.
 */
export interface QuestionTerm { lexeme: string; position: number; weight?: number }

/** BM25 weight of a synonym searched beside the question's words ("return" for "send it back"). */
const SYNONYM_WEIGHT = 0.5;

/** What one question searches: its lexemes and the term indexes of the resources in scope. */
export interface SearchScope {
  organisationId: string;
  terms: QuestionTerm[];
  resources: ResourceTerms[];
  /** Each resource's name as it is now (a rename changes no chunk, so it is read with the versions). */
  fileNames: ReadonlyMap<string, string>;
}

/** Postings kept per instance (about 16 bytes each with their positions): about 1.2M SQuAD-sized chunks' worth of lexemes. */
const MAX_POSTINGS = 12_000_000;

/** PostgreSQL keeps at most this many positions of a lexeme in a full-text vector. */
const MAX_POSITIONS = 256;
const scanned = new Uint16Array(MAX_POSITIONS);


/**
 * Milliseconds of indexing between two yields to the event loop. Slices are measured in time, not
 * chunks: under a burst every yield waits for a whole turn of a busy loop, so fixed slices of 100
 * chunks made a cold 10,000-chunk index wait a hundred turns.
 */
const BUILD_SLICE_MS = 10;

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

/**
 * The postings `found` (lexeme number, chunk, number of positions, start in `staged`, in chunk order)
 * grouped by lexeme number, ascending, each lexeme's in chunk order: a stable counting sort.
 * `cursor` has a slot per lexeme number, all zeros, and is left so.
 */
function groupByLexeme(found: Uint32Array, staged: Uint16Array, cursor: Uint32Array):
  Pick<ResourceTerms, 'lexemes' | 'offsets' | 'postings' | 'frequencies' | 'positionStarts' | 'positions'> {
  const postingCount = found.length / 4;
  const distinct: number[] = [];
  for (let f = 0; f < found.length; f += 4) if (cursor[found[f]!]!++ === 0) distinct.push(found[f]!);
  const lexemes = Int32Array.from(distinct).sort();
  const offsets = new Uint32Array(lexemes.length + 1);
  // From here `cursor` holds where each lexeme's next posting goes.
  lexemes.forEach((number, i) => {
    offsets[i + 1] = offsets[i]! + cursor[number]!;
    cursor[number] = offsets[i]!;
  });
  const postings = new Uint32Array(postingCount);
  const frequencies = new Uint16Array(postingCount);
  const positionCounts = new Uint16Array(postingCount);
  const stagedStarts = new Uint32Array(postingCount);
  for (let f = 0; f < found.length; f += 4) {
    const p = cursor[found[f]!]!++;
    const count = found[f + 2]!;
    postings[p] = found[f + 1]!;
    // A lexeme stripped of its positions still occurs once.
    frequencies[p] = Math.max(1, count);
    positionCounts[p] = count;
    stagedStarts[p] = found[f + 3]!;
  }
  const positionStarts = new Uint32Array(postingCount + 1);
  let total = 0;
  for (let p = 0; p < postingCount; p++) total += positionCounts[p]!;
  const positions = new Uint16Array(total);
  let at = 0;
  for (let p = 0; p < postingCount; p++) {
    positionStarts[p] = at;
    const from = stagedStarts[p]!;
    for (let i = 0, count = positionCounts[p]!; i < count; i++) positions[at++] = staged[from + i]!;
  }
  positionStarts[postingCount] = at;
  for (const number of lexemes) cursor[number] = 0;
  return { lexemes, offsets, postings, frequencies, positionStarts, positions };
}

/** A copy of `array` with room for at least `needed` elements (doubling). */
function grown<T extends Uint16Array | Uint32Array>(array: T, needed: number): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  copy.set(array);
  return copy;
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
 * of its resources (with the question's lexemes, in one round trip, shared by the questions over the
 * same resources that arrive together: scope-reads.ts), so a re-indexed or deleted
 * resource is reloaded or dropped at once, on every instance, on PGlite and PostgreSQL alike.
 * Least recently used resources leave first beyond {@link MAX_POSTINGS}.
 */
export class ChunkTermCache {
  private static readonly caches = new WeakMap<Knex, ChunkTermCache>();
  private readonly resources = new Map<string, ResourceTerms>();
  private readonly dictionary = new Map<string, number>();
  /** Scratch of the index builds: a counter per lexeme number (see {@link ChunkTermCache.lexemeScratch}). */
  private scratch = new Uint32Array(0);
  private readonly loading = new SingleFlight<ResourceTerms | undefined>();
  private postings = 0;
  private readonly scopeReads: ScopeReads;

  private constructor(private readonly db: Knex, private readonly maxPostings: number) {
    this.scopeReads = new ScopeReads(db);
  }

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

  /**
   * The question's lexemes (and those of `synonyms`, words searched beside it for less) and the
   * current term index of each of the organisation's resources among `resourceIds`.
   */
  async scope(organisationId: string, resourceIds: readonly string[], question: string, synonyms = ''): Promise<SearchScope> {
    const { versions, terms, synonyms: synonymTerms } = await this.scopeReads.read(organisationId, resourceIds, question, synonyms);
    const own = new Set(terms.map(([lexeme]) => lexeme));
    const synonymLexemes = synonymTerms.filter((lexeme) => !own.has(lexeme));
    // A resource asked for and not found is deleted (or another organisation's): its entry goes.
    const found = new Set(versions.map(([id]) => id));
    for (const id of resourceIds) if (!found.has(id) && this.resources.get(id)?.organisationId === organisationId) this.forget(id);
    const resources: ResourceTerms[] = [];
    const fileNames = new Map<string, string>();
    for (const [id, version, fileName] of versions) {
      fileNames.set(id, fileName);
      // A cached resource is taken without a microtask hop: a chatbot may have thousands.
      const current = this.cached(id, version) ?? await this.loadOnce(organisationId, id, version);
      if (current) resources.push(current);
    }
    return {
      organisationId, resources, fileNames,
      terms: [...terms.map(([lexeme, position]) => ({ lexeme, position: Number(position) })), ...synonymLexemes.map((lexeme) => ({ lexeme, position: 0, weight: SYNONYM_WEIGHT }))],
    };
  }

  /**
   * Loads the term indexes of the resources visitors are likeliest to ask about next, before they
   * do: those of the chatbots with the latest conversations first (then the newest chatbots), until
   * their tokens (an upper bound of their postings) would exceed `budget`, a quarter of the cache
   * by default. An instance that starts (a restart, or one added to a cluster under load) then
   * answers its first visitors without building indexes in their answers. One resource at a time,
   * each build yielding to the event loop: requests that arrive meanwhile are served. Returns the
   * resources now cached, in the order they were warmed.
   */
  async warm(budget = this.maxPostings / 4): Promise<string[]> {
    const { rows } = await this.db.raw(
      `SELECT r.id, r.organisation_id, r.chunk_version::text AS version, r.chunk_tokens::float8 AS tokens
       FROM resources r
       JOIN (SELECT cr.resource_id, max(greatest(c.created_at, coalesce(
               (SELECT v.created_at FROM conversations v WHERE v.chatbot_id = c.id ORDER BY v.created_at DESC LIMIT 1), 0))) AS used_at
             FROM chatbot_resources cr JOIN chatbots c ON c.id = cr.chatbot_id
             GROUP BY cr.resource_id) u ON u.resource_id = r.id
       WHERE r.chunk_count > 0
       ORDER BY u.used_at DESC, r.id`,
    ) as { rows: { id: string; organisation_id: string; version: string; tokens: number }[] };
    const warmed: ResourceTerms[] = [];
    let spent = 0;
    for (const row of rows) {
      if ((spent += Number(row.tokens)) > budget) break;
      const entry = this.cached(row.id, row.version) ?? await this.loadOnce(row.organisation_id, row.id, row.version);
      if (entry) warmed.push(entry);
    }
    // The likeliest last: least recently used leave first.
    for (const entry of warmed.toReversed()) this.cached(entry.resourceId, entry.version);
    return warmed.map((entry) => entry.resourceId);
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

  /** A zeroed array with a slot per lexeme of the dictionary, kept between builds. */
  private lexemeScratch(): Uint32Array {
    if (this.scratch.length < this.dictionary.size) this.scratch = new Uint32Array(Math.max(this.dictionary.size, this.scratch.length * 2));
    return this.scratch;
  }

  /** Builds the index, yielding to the event loop every {@link BUILD_SLICE_MS} ms: a big resource must not stall other requests (or `/health`). */
  private async build(resourceId: string, organisationId: string, version: string, rows: { id: string | number | null; token_count: number; tsv: string | null; model: string | null }[]): Promise<ResourceTerms> {
    // Each posting as found, chunk by chunk: its lexeme's number, its chunk, how many positions it
    // has and where they start in `staged`. Flat typed arrays: no list per lexeme to grow and collect.
    // Grouping them by lexeme does not yield, so the builds that interleave here share `cursor`.
    let found = new Uint32Array(1 << 14);
    let foundLength = 0;
    const embedded = new Map<string, number>();
    const ids = new Float64Array(rows.length);
    const tokens = new Uint32Array(rows.length);
    let staged = new Uint16Array(1 << 16);
    let stagedLength = 0;
    let totalTokens = 0;
    let sliceStart = performance.now();
    for (const [chunk, row] of rows.entries()) {
      if (performance.now() - sliceStart >= BUILD_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      ids[chunk] = Number(row.id);
      tokens[chunk] = Number(row.token_count);
      totalTokens += tokens[chunk]!;
      if (row.model) embedded.set(row.model, (embedded.get(row.model) ?? 0) + 1);
      scanTsvector(row.tsv ?? '', (lexeme, positions, count) => {
        let number = this.dictionary.get(lexeme);
        if (number === undefined) this.dictionary.set(lexeme, (number = this.dictionary.size));
        if (stagedLength + count > staged.length) staged = grown(staged, stagedLength + count);
        for (let i = 0; i < count; i++) staged[stagedLength + i] = positions[i]!;
        if (foundLength + 4 > found.length) found = grown(found, foundLength + 4);
        found[foundLength++] = number;
        found[foundLength++] = chunk;
        found[foundLength++] = count;
        found[foundLength++] = stagedLength;
        stagedLength += count;
      });
    }
    return { resourceId, organisationId, version, ids, tokens, totalTokens, embedded, ...groupByLexeme(found.subarray(0, foundLength), staged, this.lexemeScratch()) };
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
