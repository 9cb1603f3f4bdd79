import fs from 'node:fs/promises';
import type { Knex } from 'knex';
import {
  FileResourceFieldsSchema, MAX_UPLOAD_BYTES,
  type QaResourceCreate, type Resource, type ResourceType, type TextResourceCreate, type VideoHostResourceCreate, type WebsiteResourceCreate,
} from '@parley/shared';
import type { PlanLimits } from '../../config.js';
import { newId } from '../../db/ids.js';
import { badRequest, conflict, notFound, usageLimitExceeded } from '../../errors/http-error.js';
import type { UploadedFile } from '../../http/upload.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { FileStore } from '../../storage/file-store.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { enqueueIngestion, ingestionDedupeKey } from './ingestion/ingestion-worker.js';
import { sentenceVectorsDedupeKey } from './ingestion/sentence-vectors-job.js';
import type { Embedder } from './ingestion/stages/embed-chunks.js';
import { toResourceResponse } from './resource-response.js';
import type { ResourceRecord, ResourcesRepository, ResourceUsage } from './resources.repository.js';
import { retrieveChunks, type RetrievedChunk } from './retrieve-chunks.js';
import { sniffUpload } from './sniff-file-type.js';
import { documentExtension, documentSource } from './sources/document/document.source.js';
import { hostedVideoSource } from './sources/hosted-video/hosted-video.source.js';
import { matchQaPair, type QaMatch } from './sources/qa/match-qa-pair.js';
import type { QaPairsRepository } from './sources/qa/qa-pairs.repository.js';
import { qaSource } from './sources/qa/qa.source.js';
import type { SentenceEncoder } from '../../providers/llm/local/sentence-encoder.js';
import { sourceOfRecord, uploadSourceOf } from './sources/registry.js';
import type { ResourceDraft } from './sources/source-module.js';
import { textSource } from './sources/text/text.source.js';
import { webSource } from './sources/web/web.source.js';

export type { QaMatch } from './sources/qa/match-qa-pair.js';

export interface ResourcesServiceOptions {
  db: Knex;
  repository: ResourcesRepository;
  jobs: JobQueue;
  /** Wakes this process's idle job worker after an enqueue. */
  notifyWorker: () => void;
  /** Stops this process's running jobs of a key at once (other instances stop at their next lease extension). */
  cancelRunningJobs?: (dedupeKey: string) => void;
  /** Where uploads are kept (DATA_DIR/files or object storage), keyed under the organisation's id. */
  files: FileStore;
  embedder?: Embedder;
  /** The indexed saved answers of resources, which chat matches questions to. */
  /** The indexed saved answers of resources (cached per resource version: saved-answers-cache.ts). */
  qaPairs?: Pick<QaPairsRepository, 'indexed'>;
  /** Matches questions to saved answers by meaning (absent: by words). */
  questionEncoder?: SentenceEncoder;
  /** Reads the local engine's sentence vectors stored for chunks (absent without the local encoder). */
  sentenceVectors?: (organisationId: string, chunkIds: readonly number[], texts: readonly string[]) => Promise<ReadonlyMap<string, Float32Array>>;
  /** Chunks of each resource, and those whose meaning vectors are stored (absent without the local encoder). */
  meaningProgress?: (organisationId: string, resourceIds: readonly string[]) => Promise<ReadonlyMap<string, { chunks: number; ready: number }>>;
}

/** @throws 402 when adding a resource of `addedBytes` would exceed the plan. */
export function assertWithinPlan(plan: PlanLimits, usage: ResourceUsage, addedBytes: number): void {
  if (plan.maxResources !== undefined && usage.count + 1 > plan.maxResources) {
    throw usageLimitExceeded(`your plan allows at most ${plan.maxResources} resources`);
  }
  if (plan.maxStorageBytes !== undefined && usage.storedBytes + addedBytes > plan.maxStorageBytes) {
    throw usageLimitExceeded(`your plan allows at most ${plan.maxStorageBytes} stored bytes`);
  }
}

const hasResourceLimits = (plan: PlanLimits) => plan.maxResources !== undefined || plan.maxStorageBytes !== undefined;

/** The 400 of an upload of no known type. */
const UNKNOWN_FILE_TYPE = 'file must be a PDF, an MP4 video, a Word document (DOCX), PowerPoint slides (PPTX), or a UTF-8 '
  + 'Markdown, plain text, HTML or CSV file (recognised by content, not by name)';

/** `tags` of a multipart form: repeated fields, or one JSON array string (decisions.md § Resources). */
function normaliseFormFields(fields: Record<string, unknown>): Record<string, unknown> {
  const { tags, ...rest } = fields;
  if (typeof tags !== 'string') return tags === undefined ? rest : { ...rest, tags };
  if (!tags.trim().startsWith('[')) return { ...rest, tags: [tags] };
  try {
    return { ...rest, tags: JSON.parse(tags) };
  } catch {
    throw badRequest('tags must be repeated fields or one JSON array of strings');
  }
}

/** Knowledge resources: create (then processed in the background), read, delete, retrieve. */
export class ResourcesService {
  constructor(private readonly options: ResourcesServiceOptions) {}

  private get repository() { return this.options.repository; }

  /**
   * A resource of the caller's organisation, as stored (the chat feature uses it to check a
   * resource before chatting with it).
   * @throws 404 when the resource is absent or another organisation's.
   */
  async getResource(auth: AuthContext, id: string): Promise<ResourceRecord> {
    const record = await this.repository.find(auth.organisationId, id);
    if (!record) throw notFound(`resource ${id}`);
    return record;
  }

  /** @throws 404 */
  async get(auth: AuthContext, id: string): Promise<Resource> {
    return (await this.withMeaningIndex(auth.organisationId, [toResourceResponse(await this.getResource(auth, id))]))[0]!;
  }

  /** The organisation's resources, newest first. */
  async list(auth: AuthContext): Promise<Resource[]> {
    return this.withMeaningIndex(auth.organisationId, (await this.repository.list(auth.organisationId)).map(toResourceResponse));
  }

  /**
   * Deletes a resource with its chunks and stored file.
   * @throws 404; 409 with `chatbots` when chatbots still use it.
   */
  async remove(auth: AuthContext, id: string): Promise<Resource> {
    const record = await this.getResource(auth, id);
    await this.assertNotInUse(id);
    let deleted: boolean;
    try {
      deleted = await this.repository.delete(auth.organisationId, id);
    } catch (err) {
      // A chatbot took the resource between the check and the delete (ON DELETE RESTRICT).
      if ((err as { code?: string }).code === '23503') await this.assertNotInUse(id);
      throw err;
    }
    if (!deleted) throw notFound(`resource ${id}`);
    // A running ingestion (a long crawl), or the encoding of its sentence vectors, is stopped
    // rather than left to hold a job slot.
    for (const key of [ingestionDedupeKey(id), sentenceVectorsDedupeKey(id)]) {
      await this.options.jobs.cancel(key);
      this.options.cancelRunningJobs?.(key);
    }
    const storedFile = sourceOfRecord(record).storedFile?.(record.source);
    if (storedFile) await this.options.files.remove(storedFile);
    return toResourceResponse(record);
  }

  /** @throws 402 */
  async createText(auth: AuthContext, body: TextResourceCreate): Promise<Resource> {
    return this.insertAndEnqueue(auth, await textSource.create(body));
  }

  /** Saved answers (extension), their pairs stored with the resource. @throws 402 */
  async createQa(auth: AuthContext, body: QaResourceCreate): Promise<Resource> {
    return this.insertAndEnqueue(auth, await qaSource.create(body));
  }

  /** @throws 402 */
  async createHostedVideo(auth: AuthContext, body: VideoHostResourceCreate): Promise<Resource> {
    return this.insertAndEnqueue(auth, await hostedVideoSource.create(body));
  }

  /** @throws 400 for a selector that is not valid CSS; 402 */
  async createWebsite(auth: AuthContext, body: WebsiteResourceCreate): Promise<Resource> {
    return this.insertAndEnqueue(auth, await webSource.create(body));
  }

  /**
   * Checks the plan before an upload is received, so a refused upload is not streamed in first.
   * @throws 402
   */
  async assertCanUpload(auth: AuthContext): Promise<void> {
    if (!hasResourceLimits(auth.plan)) return;
    const usage = await this.options.db.transaction((trx) => this.repository.lockUsage(trx, auth.organisationId));
    assertWithinPlan(auth.plan, usage, 0);
  }

  /**
   * Keeps an uploaded PDF, MP4 or document (type by content) and queues it; the video's length is read
   * from its header at once. The temporary upload is removed whatever happens.
   * @throws 400 for a missing file, bad tags, another type, 1000 MB or more, a video of 120 minutes or more; 402
   */
  async createFile(auth: AuthContext, upload: { file?: UploadedFile; fields: Record<string, unknown> }): Promise<Resource> {
    const { file } = upload;
    try {
      const fields = FileResourceFieldsSchema.parse(normaliseFormFields(upload.fields));
      if (!file) throw badRequest('file is required (multipart part "file")');
      if (file.size >= MAX_UPLOAD_BYTES) throw badRequest('file must be smaller than 1000 MB');
      const sniffed = await sniffUpload(file.path);
      if (!sniffed) throw badRequest(UNKNOWN_FILE_TYPE);
      const id = newId();
      const extension = sniffed.type === 'DOCUMENT' ? documentExtension(sniffed.format) : uploadSourceOf(sniffed.type).fileExtension;
      const storagePath = `${auth.organisationId}/${id}.${extension}`;
      const input = { id, file, storagePath, tags: fields.tags };
      // Checked (a video's length) before anything is stored.
      const draft = sniffed.type === 'DOCUMENT'
        ? await documentSource.create({ ...input, format: sniffed.format })
        : await uploadSourceOf(sniffed.type).create(input);
      await this.options.files.put(storagePath, file.path);
      try {
        return await this.insertAndEnqueue(auth, draft);
      } catch (err) {
        await this.options.files.remove(storagePath);
        throw err;
      }
    } finally {
      if (file) await fs.rm(file.path, { force: true });
    }
  }

  /**
   * The passages of the given resources that best answer a question (hybrid full-text and vector
   * ranking when an embeddings provider is configured).
   */
  async retrieve(organisationId: string, resourceIds: readonly string[], question: string, k: number, synonyms?: string): Promise<RetrievedChunk[]> {
    return retrieveChunks(this.options.db, organisationId, resourceIds, question, k, { embedder: this.options.embedder, synonyms });
  }

  /**
   * The saved answer (an indexed pair of a QA resource among `resourceIds`) that a visitor's
   * message asks, if one matches well enough (sources/qa/match-qa-pair.ts).
   */
  async matchSavedAnswer(organisationId: string, resourceIds: readonly string[], message: string): Promise<QaMatch | undefined> {
    const pairs = await this.options.qaPairs?.indexed(organisationId, resourceIds) ?? [];
    return matchQaPair(pairs, message, this.options.questionEncoder);
  }

  /**
   * The loader of the retrieved chunks' stored sentence vectors an answer's prompt carries (the
   * local engine asks it only for sentences this instance has not cached). A failed read is not
   * an answer's failure: the sentences are then encoded.
   */
  storedSentenceVectors(organisationId: string, chunks: readonly RetrievedChunk[]): ((texts: string[]) => Promise<ReadonlyMap<string, Float32Array>>) | undefined {
    const read = this.options.sentenceVectors;
    if (!read || chunks.length === 0) return undefined;
    const chunkIds = chunks.map((chunk) => chunk.id);
    return (texts) => read(organisationId, chunkIds, texts).catch(() => new Map());
  }

  /** Adds `meaningIndex` to the `DONE` resources with chunks, on an instance that stores sentence vectors. */
  private async withMeaningIndex(organisationId: string, resources: Resource[]): Promise<Resource[]> {
    const done = resources.filter((resource) => resource.aiProcessingStatus === 'DONE');
    if (!this.options.meaningProgress || done.length === 0) return resources;
    const progress = await this.options.meaningProgress(organisationId, done.map((resource) => resource.id));
    for (const resource of done) {
      const of = progress.get(resource.id);
      if (!of || of.chunks === 0) continue;
      const share = of.ready / of.chunks;
      resource.meaningIndex = { state: share >= 1 ? 'COMPLETE' : share === 0 ? 'PENDING' : 'FILLING', progress: Math.floor(share * 100) / 100 };
    }
    return resources;
  }

  /** @throws 409 listing the chatbots that use the resource. */
  private async assertNotInUse(id: string): Promise<void> {
    const chatbots = await this.repository.chatbotsUsing(id);
    if (chatbots.length > 0) throw conflict(`resource ${id} is used by ${chatbots.length} chatbot(s); remove it from them first`, { chatbots });
  }

  /** Inserts a resource and queues its ingestion in one transaction, under the plan's limits. @throws 402 */
  private async insertAndEnqueue(auth: AuthContext, draft: ResourceDraft<ResourceType>): Promise<Resource> {
    const now = Date.now();
    const { write, ...fields } = draft;
    const record = {
      organisationId: auth.organisationId, creator: auth.userId, createdAt: now, aiProcessingStatus: 'NOT_STARTED',
      textContent: null, lastSync: null, nextSyncAt: null, failureReason: null, storedBytes: 0, processingProgress: null, ...fields,
      id: draft.id ?? newId(now),
    } as ResourceRecord;
    await this.options.db.transaction(async (trx) => {
      // Unlimited plans skip the count (it reads every resource of the organisation).
      if (hasResourceLimits(auth.plan)) assertWithinPlan(auth.plan, await this.repository.lockUsage(trx, auth.organisationId), record.storedBytes);
      await this.repository.insert(record, trx);
      await write?.(trx, record);
      await enqueueIngestion(this.options.jobs, record, trx);
    });
    this.options.notifyWorker();
    return toResourceResponse(record);
  }
}
