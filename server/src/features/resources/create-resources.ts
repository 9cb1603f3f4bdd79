import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Model } from '@parley/shared';
import { MODEL_TABLE, type Config } from '../../config.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { JobWorker } from '../../jobs/job-worker.js';
import { createFileStore } from '../../storage/create-file-store.js';
import { registerIngestion, SyncScheduler } from './ingestion/ingestion-worker.js';
import { meaningIndexProgress, queueMissingSentenceVectors, readSentenceVectors, registerSentenceVectors } from './ingestion/sentence-vectors-job.js';
import type { IngestionContext } from './ingestion/run-ingestion.js';
import { openAiEmbedder } from './ingestion/stages/embed-chunks.js';
import { localWhisperTranscriber } from './ingestion/local-whisper/local-whisper-transcriber.js';
import { findWhisperRuntime } from './ingestion/local-whisper/whisper-runtime.js';
import { openAiTranscriber, type Transcriber } from './ingestion/stages/transcribe-audio.js';
import { ResourcePassagesRepository } from './resource-passages.repository.js';
import { ResourceUpkeepService } from './resource-upkeep.service.js';
import { ResourcesRepository } from './resources.repository.js';
import { ResourcesService } from './resources.service.js';
import { QaPairsRepository } from './sources/qa/qa-pairs.repository.js';
import { SavedAnswersCache } from './sources/qa/saved-answers-cache.js';
import { QaResourcesService } from './sources/qa/qa-resources.service.js';
import type { SentenceEncoder } from '../../providers/llm/local/sentence-encoder.js';

/** The crawler's user agent when a website resource does not set one. */
export const DEFAULT_CRAWLER_USER_AGENT = 'ParleyBot/0.1 (knowledge crawler of a self-hosted Parley service)';

/** A configured transcription provider first; else offline Whisper when enabled (its runtime is looked up per video). */
function transcriberOf(config: Config): Transcriber | undefined {
  if (config.transcription) return openAiTranscriber(config.transcription);
  return config.localTranscription && localWhisperTranscriber(config.localTranscription.runtimeDir, config.localTranscription.language);
}

/** How videos without subtitles are transcribed, for the start banner: the provider, offline Whisper, or not at all (and how to change that). */
export function transcriptionSummary(config: Config): string {
  if (config.transcription) return `transcription provider at ${config.transcription.baseUrl}`;
  if (!config.localTranscription) return 'not transcribed (LOCAL_TRANSCRIPTION=false, no TRANSCRIPTION_BASE_URL)';
  const found = findWhisperRuntime(config.localTranscription.runtimeDir);
  const language = config.localTranscription.language === 'auto' ? 'language detected per video' : config.localTranscription.language;
  return 'runtime' in found ? `offline, Whisper tiny (${language})` : `not transcribed: ${found.missing}`;
}

/**
 * Builds the resources feature: its service, the ingestion handler on the worker, and the re-sync scheduler.
 * @param questionEncoder matches visitors' questions to saved answers by meaning (none: by words).
 */
export function createResourcesFeature(
  config: Config, db: Knex, jobs: JobQueue, worker: JobWorker, logger: Logger, overrides: Partial<IngestionContext> = {},
  questionEncoder?: SentenceEncoder,
): {
  resources: ResourcesService; resourceUpkeep: ResourceUpkeepService; qaResources: QaResourcesService; resourceSync: SyncScheduler; ingestion: IngestionContext;
  /** Queues the sentence vectors of chunks indexed without them (run at start); absent without the local encoder. */
  queueMissingSentenceVectors?: () => Promise<number>;
  /** Queues the missing sentence vectors of a chatbot's resources when the local engine answers its model; absent without the local encoder. */
  queueSentenceVectorsFor?: (organisationId: string, resourceIds: readonly string[], model: string) => Promise<number>;
} {
  const repository = new ResourcesRepository(db);
  // An embeddings provider is the first choice; the caller may give a local embedder instead.
  const embedder = config.embeddings ? openAiEmbedder(config.embeddings) : overrides.embedder;
  const ingestion: IngestionContext = {
    db, jobs, repository, logger, files: createFileStore(config), allowPrivateNetworks: config.crawlAllowPrivateNetworks,
    videoHostUrl: config.videoHostUrl, userAgent: DEFAULT_CRAWLER_USER_AGENT,
    transcriber: transcriberOf(config), embedder,
    parserLimits: config.parserLimits, ocrMaxPages: config.ocrMaxPages, ocrMaxMs: config.ocrMaxMs, crawlMaxDurationMs: config.crawlMaxDurationMs, ...overrides,
  };
  const encoder = ingestion.sentenceEncoder;
  // The local encoder's chunk vectors are filled in by the sentence vectors job, after DONE.
  const chunkEmbedder = encoder && embedder && !config.embeddings ? embedder : undefined;
  if (chunkEmbedder) ingestion.embedInBackground = true;
  registerIngestion(worker, ingestion);
  const answersLocally = (model: string) => {
    const family = MODEL_TABLE[model as Model]?.family;
    return family === undefined || !config.providers[family].apiKey;
  };
  const answering = { answersLocally, resourceChatLocal: answersLocally(config.resourceChatModel) };
  if (encoder) registerSentenceVectors(worker, { db, jobs, encoder, chunkEmbedder, logger, ...answering });
  const qaPairs = new QaPairsRepository(db);
  const resources = new ResourcesService({
    db, repository, jobs, notifyWorker: () => worker.notify(), cancelRunningJobs: (key) => worker.cancel(key), files: ingestion.files, embedder,
    qaPairs: new SavedAnswersCache(db, qaPairs), ...(questionEncoder ? { questionEncoder } : {}),
    ...(encoder ? {
      sentenceVectors: (organisationId: string, chunkIds: readonly number[], texts: readonly string[]) => readSentenceVectors(db, organisationId, chunkIds, texts),
      meaningProgress: (organisationId: string, resourceIds: readonly string[]) => meaningIndexProgress(db, organisationId, resourceIds, chunkEmbedder !== undefined, answering),
    } : {}),
  });
  const resourceUpkeep = new ResourceUpkeepService({
    db, resources, repository, passages: new ResourcePassagesRepository(db), jobs, notifyWorker: () => worker.notify(),
  });
  const qaResources = new QaResourcesService({ db, resources, repository, pairs: qaPairs, jobs, notifyWorker: () => worker.notify() });
  return {
    resources, resourceUpkeep, qaResources, resourceSync: new SyncScheduler(db, repository, jobs, () => worker.notify(), logger), ingestion,
    ...(encoder ? {
      queueMissingSentenceVectors: () => queueMissingSentenceVectors(db, jobs),
      queueSentenceVectorsFor: async (organisationId: string, resourceIds: readonly string[], model: string) => {
        if (!answersLocally(model)) return 0;
        const queued = await queueMissingSentenceVectors(db, jobs, { organisationId, resourceIds });
        if (queued > 0) worker.notify();
        return queued;
      },
    } : {}),
  };
}
