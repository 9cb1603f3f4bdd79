import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { JobQueue } from '../../../jobs/job-queue.js';
import { yieldPoint } from '../../../jobs/job-yield.js';
import type { JobWorker } from '../../../jobs/job-worker.js';
import { LOCAL_ENCODER_MODEL, type SentenceEncoder } from '../../../providers/llm/local/sentence-encoder.js';
import { hasVectorColumn } from './chunk-index.js';
import { INGEST_RESOURCE_JOB } from './ingestion-worker.js';
import { toVectorLiteral, type Embedder } from './stages/embed-chunks.js';
import { meaningTexts, packSentenceVectors, unpackSentenceVectors } from '../../../providers/llm/local/sentence-vectors.js';

/** The job kind that stores the local engine's sentence vectors of a resource's new chunks. */
export const STORE_SENTENCE_VECTORS_JOB = 'resource-sentence-vectors';

/** At most one queued job per resource: it takes every chunk still without vectors. */
export const sentenceVectorsDedupeKey = (resourceId: string) => `resource-sentence-vectors:${resourceId}`;

export interface SentenceVectorsPayload { resourceId: string; organisationId: string }

/** Chunks encoded per transaction. */
const BATCH_CHUNKS = 32;
/** Batches per job: a large resource continues in a new job, so other jobs get the slot in between. */
const BATCHES_PER_JOB = 16;
/**
 * The share of a batch's time this instance's event loop must be busy (answering visitors, taking
 * uploads) for the job to rest as long as the batch took. On two cores, encoding without rests had
 * taken half the service's capacity in a burst; resting always, though, also halved the speed on an
 * idle instance, where an owner trying a new chatbot waits for these vectors (until they are
 * stored, a first question about new passages encodes their sentences itself).
 */
const BUSY_UTILIZATION = 0.5;

/**
 * How long the job rests after a batch that took `batchMs` while the event loop was busy
 * `utilization` (0 to 1) of that time: as long as the batch took when the service is busy, in
 * proportion below that, almost not at all when it is idle. Background encoding so takes at most
 * half of one core from visitors, and all of it when there are none.
 */
export function restAfterBatch(batchMs: number, utilization: number): number {
  return batchMs * Math.min(1, Math.max(0, utilization) / BUSY_UTILIZATION);
}

/** Queues the job for a resource whose chunk set gained chunks (inside the caller's transaction). */
export function queueSentenceVectors(jobs: JobQueue, trx: Knex, payload: SentenceVectorsPayload): Promise<number | undefined> {
  return jobs.enqueue(STORE_SENTENCE_VECTORS_JOB, payload, { dedupeKey: sentenceVectorsDedupeKey(payload.resourceId) }, trx);
}

/**
 * The stored vectors of the given chunks' sentences, for the texts asked (those found): one query
 * by primary key, scoped to the organisation.
 */
export async function readSentenceVectors(db: Knex, organisationId: string, chunkIds: readonly number[], texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const found = new Map<string, Float32Array>();
  if (chunkIds.length === 0 || texts.length === 0) return found;
  const rows: { vectors: Buffer }[] = await db('chunk_sentence_vectors')
    .whereIn('chunk_id', chunkIds).where({ organisation_id: organisationId, model: LOCAL_ENCODER_MODEL }).select('vectors');
  for (const row of rows) {
    const wanted = texts.filter((text) => !found.has(text));
    if (wanted.length === 0) break;
    for (const [text, vector] of unpackSentenceVectors(Buffer.from(row.vectors), wanted)) found.set(text, vector);
  }
  return found;
}

interface Context extends LocalAnswering {
  db: Knex; jobs: JobQueue; encoder: SentenceEncoder; logger: Logger;
  /** Retrieval's embedder when it is the local encoder: the chunks' vectors are stored here, not at ingestion. */
  chunkEmbedder?: Embedder;
}

/** Who answers from a resource: whether a chatbot model, and a resource's own chat, are answered by the local engine. */
export interface LocalAnswering {
  /** Whether this instance answers a chatbot model with the local engine (no provider credentials for its family). */
  answersLocally: (model: string) => boolean;
  /** Whether a resource's own chat (`RESOURCE_CHAT_MODEL`) is answered by the local engine. */
  resourceChatLocal: boolean;
}

/**
 * The resources (of those given) whose sentences the local engine may rank: their own chat is
 * local, a chatbot using them is answered locally, or no chatbot uses them yet (one answered
 * locally may). A resource whose chatbots all have a model provider needs no vectors; should a
 * local one take it later, its answers encode what is missing, and the next start queues the job again.
 */
export async function resourcesNeedingSentenceVectors(db: Knex, resourceIds: readonly string[], answering: LocalAnswering): Promise<Set<string>> {
  if (answering.resourceChatLocal || resourceIds.length === 0) return new Set(resourceIds);
  const rows: { resource_id: string; model: string }[] = await db('chatbot_resources as cr').join('chatbots as c', 'c.id', 'cr.chatbot_id')
    .whereIn('cr.resource_id', [...resourceIds]).distinct('cr.resource_id', 'c.model');
  const providerOnly = new Set(rows.map((row) => row.resource_id));
  for (const row of rows) if (answering.answersLocally(row.model)) providerOnly.delete(row.resource_id);
  return new Set(resourceIds.filter((id) => !providerOnly.has(id)));
}

const rest = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(done, ms);
  function done() {
    clearTimeout(timer);
    signal.removeEventListener('abort', done);
    resolve();
  }
  signal.addEventListener('abort', done, { once: true });
});

/** How long a job that gave way to an ingestion waits before it is taken again. */
const YIELD_MS = 1000;

/** Whether an ingestion job is due and waiting for a slot. */
async function ingestionWaiting(db: Knex): Promise<boolean> {
  const rows = await db('jobs').where({ kind: INGEST_RESOURCE_JOB, status: 'queued' }).where('run_at', '<=', Date.now()).limit(1).select('id');
  return rows.length > 0;
}

interface PendingChunk { id: string | number; content: string; has_vectors: boolean; needs_embedding: boolean }

/** The next chunks of the resource still without their sentence vectors (when wanted) or their chunk vector (when filled in here). */
function pendingChunks(ctx: Context, resourceId: string, sentences: boolean, embedChunks: boolean): Promise<PendingChunk[]> {
  const hasVectors = ctx.db('chunk_sentence_vectors as v').whereRaw('v.chunk_id = c.id').where('v.model', LOCAL_ENCODER_MODEL);
  return ctx.db('resource_chunks as c').where('c.resource_id', resourceId)
    .where((q) => {
      if (sentences) q.orWhereNotExists(hasVectors);
      if (embedChunks) q.orWhereNull('c.embedding');
    })
    .orderBy('c.id').limit(BATCH_CHUNKS)
    .select('c.id', 'c.content', ctx.db.raw(`EXISTS (${hasVectors.clone().select(ctx.db.raw('1')).toQuery()}) AS has_vectors`),
      ctx.db.raw(embedChunks ? 'c.embedding IS NULL AS needs_embedding' : 'false AS needs_embedding'));
}

/** Stores the chunk vectors of the batch (the local encoder, retrieval's embedder), in one statement. */
async function storeChunkVectors(ctx: Context, embedder: Embedder, chunks: readonly PendingChunk[]): Promise<number> {
  if (chunks.length === 0) return 0;
  const vectors = await embedder.embed(chunks.map((chunk) => chunk.content));
  await ctx.db.raw(
    `UPDATE resource_chunks c SET embedding = v.e::vector, embedding_model = ? FROM unnest(?::bigint[], ?::text[]) AS v(id, e) WHERE c.id = v.id`,
    [embedder.model, chunks.map((chunk) => Number(chunk.id)), vectors.map(toVectorLiteral)],
  );
  return chunks.length;
}

/**
 * Encodes, batch by batch, the sentences of the resource's chunks that have no stored vectors yet,
 * and stores them; with the local encoder as retrieval's embedder, the chunks' own vectors too
 * (ingestion leaves them to this job, so a resource is DONE, searchable by words, at once).
 * Idempotent: a chunk that got its vectors meanwhile (another instance) keeps them; a chunk
 * deleted meanwhile (a re-sync) takes its vectors with it.
 */
async function storeSentenceVectors(ctx: Context, payload: SentenceVectorsPayload, signal: AbortSignal): Promise<void> {
  const embedder = ctx.chunkEmbedder && await hasVectorColumn(ctx.db) ? ctx.chunkEmbedder : undefined;
  const sentences = (await resourcesNeedingSentenceVectors(ctx.db, [payload.resourceId], ctx)).has(payload.resourceId);
  if (!sentences && !embedder) return;
  let stored = 0;
  let embedded = 0;
  let finished = false;
  for (let batch = 0; batch < BATCHES_PER_JOB; batch++) {
    // Between two batches: another organisation's job may take this slot for a while (job-yield.ts).
    await yieldPoint();
    signal.throwIfAborted();
    // A resource waiting to be read goes first: it is DONE (answerable) sooner, and this job
    // continues after it, where it stopped.
    if (await ingestionWaiting(ctx.db)) {
      await ctx.jobs.enqueue(STORE_SENTENCE_VECTORS_JOB, payload, { dedupeKey: sentenceVectorsDedupeKey(payload.resourceId), runAt: Date.now() + YIELD_MS });
      break;
    }
    const started = performance.now();
    const loopBefore = performance.eventLoopUtilization();
    const pending = await pendingChunks(ctx, payload.resourceId, sentences, embedder !== undefined);
    if (pending.length === 0) {
      finished = true;
      break;
    }
    if (embedder) embedded += await storeChunkVectors(ctx, embedder, pending.filter((chunk) => chunk.needs_embedding));
    const chunks = sentences ? pending.filter((chunk) => !chunk.has_vectors) : [];
    const textsOf = chunks.map((chunk) => meaningTexts(chunk.content));
    const unique = [...new Set(textsOf.flat())];
    const vectors = unique.length > 0 ? await ctx.encoder.embed(unique, { cache: false }) : [];
    signal.throwIfAborted();
    const byText = new Map(unique.map((text, i) => [text, vectors[i]!]));
    const rows = chunks.map((chunk, i) => ({
      chunk_id: Number(chunk.id), organisation_id: payload.organisationId, model: LOCAL_ENCODER_MODEL,
      vectors: packSentenceVectors(textsOf[i]!, textsOf[i]!.map((text) => byText.get(text)!)),
    }));
    if (rows.length > 0) {
      stored += await ctx.db.transaction(async (trx) => {
        // A chunk deleted since it was read (a re-sync) is skipped; the lock keeps the others until commit.
        const live = new Set((await trx('resource_chunks').whereIn('id', rows.map((row) => row.chunk_id)).forShare().pluck('id')).map(Number));
        const insert = rows.filter((row) => live.has(row.chunk_id));
        if (insert.length > 0) await trx('chunk_sentence_vectors').insert(insert).onConflict('chunk_id').merge(['model', 'vectors']);
        return insert.length;
      });
    }
    // The resource's last chunks: nothing to rest for.
    if (pending.length < BATCH_CHUNKS) {
      finished = true;
      break;
    }
    if (batch === BATCHES_PER_JOB - 1) {
      await queueSentenceVectors(ctx.jobs, ctx.db, payload);
    }
    await rest(restAfterBatch(performance.now() - started, performance.eventLoopUtilization(loopBefore).utilization), signal);
    signal.throwIfAborted();
  }
  // Every chunk has its vector: each instance's term index of the resource is read again once,
  // and vector neighbours join its ranking (until then it is ranked by words).
  if (finished && embedded > 0) await ctx.db('resources').where({ id: payload.resourceId }).increment('chunk_version', 1);
  if (stored > 0 || embedded > 0) ctx.logger.info({ resourceId: payload.resourceId, chunks: stored, chunkVectors: embedded }, 'sentence vectors stored');
}

/** Registers the job that stores sentence vectors after ingestion. */
export function registerSentenceVectors(worker: JobWorker, ctx: Context): void {
  worker.register<SentenceVectorsPayload>(STORE_SENTENCE_VECTORS_JOB, {
    run: (payload, _job, signal) => storeSentenceVectors(ctx, payload, signal),
  });
}

/**
 * Queues the job for every resource with chunks that have no stored vectors (chunks indexed
 * before vectors were stored, or by an instance without the encoder, or skipped while only
 * chatbots with a model provider used them). Run at start, and for a chatbot's resources when a
 * chatbot answered locally starts using them (`only`); cheap when there is nothing to do.
 */
export async function queueMissingSentenceVectors(db: Knex, jobs: JobQueue, only?: { organisationId: string; resourceIds: readonly string[] }): Promise<number> {
  if (only?.resourceIds.length === 0) return 0;
  const query = db('resource_chunks as c')
    .whereNotExists(db('chunk_sentence_vectors as v').whereRaw('v.chunk_id = c.id').where('v.model', LOCAL_ENCODER_MODEL));
  if (only) query.where('c.organisation_id', only.organisationId).whereIn('c.resource_id', [...only.resourceIds]);
  const resources: { resource_id: string; organisation_id: string }[] = await query.distinct('c.resource_id', 'c.organisation_id');
  for (const resource of resources) {
    await queueSentenceVectors(jobs, db, { resourceId: resource.resource_id, organisationId: resource.organisation_id });
  }
  return resources.length;
}

/**
 * How far each resource's meaning index is: its chunks, and those with their sentence vectors (and
 * chunk vector, when this job stores it). A resource whose chatbots all have a model provider
 * needs no sentence vectors: its index is its chunk vectors alone, or none (left out).
 */
export async function meaningIndexProgress(db: Knex, organisationId: string, resourceIds: readonly string[], withChunkVectors: boolean, answering: LocalAnswering): Promise<Map<string, { chunks: number; ready: number }>> {
  const progress = new Map<string, { chunks: number; ready: number }>();
  if (resourceIds.length === 0) return progress;
  const chunkVectors = withChunkVectors && await hasVectorColumn(db);
  const needing = await resourcesNeedingSentenceVectors(db, resourceIds, answering);
  const counted = chunkVectors ? resourceIds : resourceIds.filter((id) => needing.has(id));
  if (counted.length === 0) return progress;
  const embedded = chunkVectors ? 'c.embedding IS NOT NULL' : 'true';
  const result = await db.raw(
    `SELECT c.resource_id, count(*)::int AS chunks, (count(*) FILTER (WHERE v.chunk_id IS NOT NULL AND ${embedded}))::int AS ready,
       (count(*) FILTER (WHERE ${embedded}))::int AS embedded
     FROM resource_chunks c LEFT JOIN chunk_sentence_vectors v ON v.chunk_id = c.id AND v.model = ?
     WHERE c.organisation_id = ? AND c.resource_id = ANY(?::text[]) GROUP BY c.resource_id`,
    [LOCAL_ENCODER_MODEL, organisationId, [...counted]],
  );
  for (const row of result.rows as { resource_id: string; chunks: number; ready: number; embedded: number }[]) {
    progress.set(row.resource_id, { chunks: row.chunks, ready: needing.has(row.resource_id) ? row.ready : row.embedded });
  }
  return progress;
}
