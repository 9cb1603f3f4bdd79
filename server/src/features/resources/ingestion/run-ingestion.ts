import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { stripNulCharacters, SYNC_FREQUENCY_MS } from '@parley/shared';
import type { Job, JobQueue, QUICK_LANE } from '../../../jobs/job-queue.js';
import type { SafeFetchOptions } from '../../../net/safe-fetch.js';
import type { FileStore } from '../../../storage/file-store.js';
import type { ResourceRecord, ResourcesRepository, ResourceUpdate } from '../resources.repository.js';
import { sourceOfRecord } from '../sources/registry.js';
import type { ProgressRecorder } from '../sources/source-module.js';
import { hasVectorColumn, indexedSectionHashes, swapChunks } from './chunk-index.js';
import { discardStagedChunks, stageChunks } from './chunk-staging.js';
import { IngestionFailedError, NoTextFoundError, toStorableOutput, type ReaderOutput, type SourceSection } from './ingestion-types.js';
import { withParser, type Parser, type ParserLimits } from './sandbox/parser-process.js';
import { chunkSections, DEFAULT_CHUNK_OPTIONS, sectionHash, textPipelineKey, type TextChunk } from './stages/chunk-text.js';
import type { CrawlClock } from './stages/polite-fetcher.js';
import type { Embedder } from './stages/embed-chunks.js';
import { queueSentenceVectors } from './sentence-vectors-job.js';
import type { SentenceEncoder } from '../../../providers/llm/local/sentence-encoder.js';
import type { Transcriber } from './stages/transcribe-audio.js';

/** What ingestion needs from the rest of the service. */
export interface IngestionContext {
  db: Knex;
  jobs: JobQueue;
  repository: ResourcesRepository;
  logger: Logger;
  /** Where uploads live (DATA_DIR/files or object storage), keyed by their module's `storedFile`. */
  files: FileStore;
  allowPrivateNetworks: boolean;
  /** Narrows the SSRF policy (tests); production uses public addresses only. */
  isAllowedAddress?: SafeFetchOptions['isAllowedAddress'];
  videoHostUrl?: string;
  userAgent: string;
  transcriber?: Transcriber;
  embedder?: Embedder;
  /**
   * The embedder is the local encoder: chunks are stored DONE without vectors (searchable by words
   * at once) and the sentence vectors job fills theirs in behind, with the sentences' own.
   */
  embedInBackground?: boolean;
  /** The local engine's encoder: new chunks get their sentence vectors stored by a follow-up job. */
  sentenceEncoder?: SentenceEncoder;
  /** Time and memory limits of the process that parses uploaded files and crawled pages. */
  parserLimits: ParserLimits;
  /** Pages of one PDF read by OCR at most (0: none); absent: the default of OCR_MAX_PAGES. */
  ocrMaxPages?: number;
  /** OCR time of one PDF at most, in ms; absent: the default of OCR_MAX_SECONDS. */
  ocrMaxMs?: number;
  /** A crawl stops after this long (keeping the pages read so far). */
  crawlMaxDurationMs?: number;
  /** The crawler's clock (waits, deadline); tests give a virtual one. */
  crawlClock?: CrawlClock;
  /**
   * Called when processing ended (DONE or FAILED…), with the resource as stored, inside the
   * transaction that stores it when there is one (`resource.processed` notifications).
   */
  onProcessed?: (resource: ResourceRecord, db: Knex) => Promise<void>;
}

/** The payload of an ingestion job; `organisationId` lets the queue share its slots fairly between tenants. */
export interface IngestionPayload { resourceId: string; organisationId?: string; lane?: typeof QUICK_LANE }

/** A job whose lease another worker took over: its results are dropped (that worker commits them). */
class LostLeaseError extends Error {}

/**
 * Writes a long read's progress (`processingProgress`) one write at a time, so a late write never
 * overtakes the final one; a failed write is only logged (progress is a hint, never the outcome).
 */
function progressRecorder(ctx: IngestionContext, resourceId: string): ProgressRecorder {
  let last = Promise.resolve();
  return {
    report(fraction) {
      last = last.then(() => ctx.repository.update(resourceId, { processingProgress: fraction }))
        .then(() => undefined, (err: unknown) => ctx.logger.warn({ err, resourceId }, 'progress not recorded'));
    },
    settled: () => last,
  };
}

/**
 * Text up to this many characters is chunked on the service's thread (a few tens of ms at most,
 * whatever its shape); more goes to the parser process, whose time and memory are bounded, so a
 * 5,000,000-character text never holds the event loop that answers every tenant.
 */
const INLINE_CHUNK_CHARS = 50_000;

async function chunkOffLoop(parser: Parser, sections: SourceSection[], pipelineKey: string): Promise<TextChunk[]> {
  const chars = sections.reduce((sum, section) => sum + section.units.reduce((s, unit) => s + unit.text.length, 0), 0);
  if (chars <= INLINE_CHUNK_CHARS) return chunkSections(sections, DEFAULT_CHUNK_OPTIONS, pipelineKey);
  return parser.call('chunkSections', sections, DEFAULT_CHUNK_OPTIONS, pipelineKey);
}

/** When a resource syncs next by its type's frequency (null: never). */
export function nextSyncAt(resource: ResourceRecord, now: number): number | null {
  const frequency = sourceOfRecord(resource).syncFrequency?.(resource.source);
  const period = frequency ? SYNC_FREQUENCY_MS[frequency] : undefined;
  return period === undefined ? null : now + period;
}

/**
 * Processes one resource: read (by its type's module, `sources/`) → chunk → (embed) → stage the
 * new chunks (short transactions, unseen by readers) → swap the chunk set and set `DONE` in one
 * transaction that also completes the job, so the result is applied exactly once. Unchanged sections keep their chunks; a section is unchanged only under
 * the same text pipeline (chunk size, embeddings model), so a changed pipeline re-indexes. A
 * source with no text ends `FAILED_NO_TEXT_FOUND`, a permanent failure `FAILED`; any other error
 * is thrown for the queue to retry (`onGiveUp` ends it FAILED).
 */
export async function runIngestion(ctx: IngestionContext, job: Job<IngestionPayload>, signal: AbortSignal): Promise<void> {
  const resource = await ctx.repository.findForIngestion(job.payload.resourceId);
  if (!resource) return;
  const log = ctx.logger.child({ resourceId: resource.id, type: resource.type });
  // Only a worker that still holds the job may mark it; a zombie's mark would never be cleared.
  if (!await ctx.jobs.holdsLease(job)) return;
  await ctx.repository.update(resource.id, { aiProcessingStatus: 'IN_PROGRESS', processingProgress: null });
  const known = await indexedSectionHashes(ctx.db, resource.id);
  const source = sourceOfRecord(resource);
  const embedder = ctx.embedder && await hasVectorColumn(ctx.db) ? ctx.embedder : undefined;
  const pipelineKey = textPipelineKey({ chunk: DEFAULT_CHUNK_OPTIONS, embeddingModel: embedder?.model });
  let output: ReaderOutput;
  let hashes: string[];
  let chunks: TextChunk[];
  try {
    // One parser process for the read and the chunking after it (started only if either needs it).
    ({ output, hashes, chunks } = await withParser(ctx.parserLimits, signal, async (parser) => {
      const readContext = { ...ctx, signal, indexed: known, pipelineKey, parser, progress: () => progressRecorder(ctx, resource.id) };
      const read = toStorableOutput(await source.read(readContext, resource));
      const readHashes = read.sections.map((section) => sectionHash(section, pipelineKey));
      const newChunks = await chunkOffLoop(parser, read.sections.filter((_, index) => !known.has(readHashes[index]!)), pipelineKey);
      return { output: read, hashes: readHashes, chunks: newChunks };
    }));
  } catch (err) {
    if (!(err instanceof NoTextFoundError || err instanceof IngestionFailedError)) throw err;
    const status = err instanceof NoTextFoundError ? 'FAILED_NO_TEXT_FOUND' : 'FAILED';
    log.warn({ reason: err.message }, `ingestion ended ${status}`);
    await finish(ctx, job, resource, { aiProcessingStatus: status, failureReason: stripNulCharacters(err.message), processingProgress: null, nextSyncAt: nextSyncAt(resource, Date.now()) });
    return;
  }
  // Sections read again unchanged, and web pages that answered 304, keep their chunks.
  const keepHashes = new Set([...hashes, ...(output.keptHashes ?? [])].filter((hash) => known.has(hash)));
  const vectors = embedder && !ctx.embedInBackground && chunks.length > 0 ? await embedder.embed(chunks.map((chunk) => chunk.content), signal) : undefined;
  const now = Date.now();
  const textBytes = output.pages
    ? output.pages.reduce((sum, page) => sum + page.textBytes, 0)
    : output.sections.reduce((sum, section) => sum + section.units.reduce((s, unit) => s + Buffer.byteLength(unit.text), 0), 0);
  const outcome = source.afterRead?.(resource, output, { now, textBytes, pipelineKey, nextSyncAt: nextSyncAt(resource, now) });
  // The new chunks are written ahead in short transactions (chunk-staging.ts); the swap moves them in.
  const run = { runKey: randomUUID(), jobId: job.id, resourceId: resource.id, organisationId: resource.organisationId };
  try {
    const staged = chunks.length > 0
      ? await stageChunks(ctx.db, run, chunks, signal, vectors && embedder ? { model: embedder.model, vectors } : undefined)
      : undefined;
    await finish(ctx, job, resource, { aiProcessingStatus: 'DONE', failureReason: null, processingProgress: null, ...outcome?.fields }, {
      resourceId: resource.id, organisationId: resource.organisationId, keepHashes, ...(staged ? { staged } : {}),
    }, outcome?.write);
  } finally {
    // Nothing is left after a swap; after a failure or a lost lease, the run's rows go.
    if (chunks.length > 0) await discardStagedChunks(ctx.db, run.runKey).catch((err) => log.warn({ err }, 'staged chunks not deleted'));
  }
  log.info({ sections: output.sections.length, newChunks: chunks.length, keptSections: keepHashes.size }, 'ingestion done');
}

/** Commits the outcome: resource fields, chunk swap and job completion together, or nothing. */
async function finish(
  ctx: IngestionContext, job: Job<IngestionPayload>, resource: ResourceRecord, fields: ResourceUpdate,
  swap?: Parameters<typeof swapChunks>[1], alsoWrite?: (trx: Knex) => Promise<void>,
): Promise<void> {
  try {
    await ctx.db.transaction(async (trx) => {
      if (!await ctx.jobs.completeIn(trx, job)) throw new LostLeaseError();
      // Deleted meanwhile: nothing to write (its chunks went with it).
      if (await ctx.repository.update(resource.id, fields, trx) === 0) return;
      if (swap) await swapChunks(trx, swap);
      if ((swap?.staged?.count ?? 0) > 0 && ctx.sentenceEncoder) await queueSentenceVectors(ctx.jobs, trx, { resourceId: resource.id, organisationId: resource.organisationId });
      if (alsoWrite) await alsoWrite(trx);
      const stored = ctx.onProcessed && await ctx.repository.find(resource.organisationId, resource.id, trx);
      if (stored) await ctx.onProcessed!(stored, trx);
    });
  } catch (err) {
    if (err instanceof LostLeaseError) {
      ctx.logger.warn({ jobId: job.id, resourceId: resource.id }, 'ingestion result dropped: the job lease was lost');
      return;
    }
    throw err;
  }
}
