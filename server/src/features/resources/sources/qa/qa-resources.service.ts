import type { Knex } from 'knex';
import type { QaPair, QaPairInput, QaResourceContent, QaResourceUpdate, Resource } from '@parley/shared';
import { MAX_QA_PAIRS } from '@parley/shared';
import { newId } from '../../../../db/ids.js';
import { badRequest, notFound } from '../../../../errors/http-error.js';
import type { JobQueue } from '../../../../jobs/job-queue.js';
import type { AuthContext } from '../../../organisations/organisations.service.js';
import { enqueueIngestion } from '../../ingestion/ingestion-worker.js';
import { toResourceResponse } from '../../resource-response.js';
import type { ResourceFields, ResourceRecord, ResourcesRepository } from '../../resources.repository.js';
import { assertWithinPlan, type ResourcesService } from '../../resources.service.js';
import { pairBytes, type QaPairsRepository } from './qa-pairs.repository.js';

export interface QaResourcesOptions {
  db: Knex;
  resources: ResourcesService;
  repository: ResourcesRepository;
  pairs: QaPairsRepository;
  jobs: JobQueue;
  notifyWorker: () => void;
}

const toPair = ({ id, questions, answer }: QaPair): QaPair => ({ id, questions, answer });

/**
 * Editing saved answers (extension): read, replace, add and delete the pairs of a QA resource.
 * Every change re-indexes the resource through the ingestion job, whose chunk swap is atomic, so
 * the old pairs answer until the new ones are in.
 */
export class QaResourcesService {
  constructor(private readonly options: QaResourcesOptions) {}

  /** `GET /v1/resource/qa/{id}`. @throws 400 for another type; 404 */
  async get(auth: AuthContext, id: string): Promise<QaResourceContent> {
    const record = await this.qaRecord(auth, id);
    const pairs = await this.options.pairs.list(auth.organisationId, id);
    return { id, name: record.fileName, tags: record.tags, pairs: pairs.map(toPair) };
  }

  /**
   * `PUT /v1/resource/qa/{id}`: renames, re-tags and/or replaces the pairs (a pair sent with one
   * of the resource's pair ids keeps it).
   * @throws 400 for another type or a pair id that is not the resource's; 402 over the plan's storage; 404
   */
  async update(auth: AuthContext, id: string, body: QaResourceUpdate): Promise<Resource> {
    const record = await this.qaRecord(auth, id);
    const fields: Partial<ResourceFields> = {};
    if (body.name !== undefined) fields.fileName = body.name;
    if (body.tags !== undefined) fields.tags = body.tags;
    const pairs = body.pairs && await this.replacementPairs(auth, id, body.pairs);
    await this.change(auth, record, fields, pairs && {
      bytes: pairs.reduce((sum, pair) => sum + pairBytes(pair), 0),
      write: (trx) => this.options.pairs.replace(trx, auth.organisationId, id, pairs),
    });
    return toResourceResponse({ ...record, ...fields });
  }

  /** `POST /v1/resource/qa/{id}/pairs`. @throws 400 for another type or a resource of 1,000 pairs; 402; 404 */
  async addPair(auth: AuthContext, id: string, body: QaPairInput): Promise<QaPair> {
    const record = await this.qaRecord(auth, id);
    if (await this.options.pairs.count(auth.organisationId, id) >= MAX_QA_PAIRS) throw badRequest(`resource ${id} already holds ${MAX_QA_PAIRS} pairs`);
    const pair = { id: newId(), ...body };
    await this.change(auth, record, {}, {
      bytes: record.storedBytes + pairBytes(pair),
      write: (trx) => this.options.pairs.append(trx, auth.organisationId, id, [pair]),
    });
    return pair;
  }

  /** `DELETE /v1/resource/qa/{id}/pairs/{pairId}`. @throws 400 for another type; 404 for the resource or the pair */
  async removePair(auth: AuthContext, id: string, pairId: string): Promise<QaPair> {
    const record = await this.qaRecord(auth, id);
    let removed: QaPair | undefined;
    await this.change(auth, record, {}, {
      bytes: undefined,
      write: async (trx) => {
        removed = await this.options.pairs.delete(trx, auth.organisationId, id, pairId);
        if (!removed) throw notFound(`pair ${pairId} of resource ${id}`);
        await this.options.repository.update(id, { storedBytes: Math.max(0, record.storedBytes - pairBytes(removed)) }, trx);
      },
    });
    return toPair(removed!);
  }

  /** @throws 400 for another type; 404 */
  private async qaRecord(auth: AuthContext, id: string): Promise<ResourceRecord> {
    const record = await this.options.resources.getResource(auth, id);
    if (record.type !== 'QA') throw badRequest(`resource ${id} is a ${record.type} resource; only QA resources have saved answers`);
    return record;
  }

  /** The pairs of a `PUT`, with their kept or new ids. @throws 400 for an id that is not one of the resource's pairs, or given twice */
  private async replacementPairs(auth: AuthContext, id: string, given: NonNullable<QaResourceUpdate['pairs']>): Promise<QaPair[]> {
    const existing = new Set((await this.options.pairs.list(auth.organisationId, id)).map((pair) => pair.id));
    const seen = new Set<string>();
    return given.map((pair, index) => {
      if (pair.id !== undefined && (!existing.has(pair.id) || seen.has(pair.id))) {
        throw badRequest(`pairs[${index}].id must be the id of one of the resource's pairs, given once`);
      }
      if (pair.id !== undefined) seen.add(pair.id);
      return { id: pair.id ?? newId(), questions: pair.questions, answer: pair.answer };
    });
  }

  /**
   * Writes fields and, for a change of pairs, the pairs and the resource's new size under the
   * plan's storage limit, and queues the re-index, all in one transaction.
   * @throws 402
   */
  private async change(
    auth: AuthContext, record: ResourceRecord, fields: Partial<ResourceFields>,
    pairs?: { bytes: number | undefined; write: (trx: Knex) => Promise<void> },
  ): Promise<void> {
    const { repository, jobs } = this.options;
    if (pairs?.bytes !== undefined) fields.storedBytes = pairs.bytes;
    // Queued for re-indexing: a client sees the change pending until it is in (the old pairs answer meanwhile).
    if (pairs) fields.aiProcessingStatus = 'NOT_STARTED';
    await this.options.db.transaction(async (trx) => {
      if (pairs?.bytes !== undefined && auth.plan.maxStorageBytes !== undefined) {
        const usage = await repository.lockUsage(trx, auth.organisationId);
        assertWithinPlan({ maxStorageBytes: auth.plan.maxStorageBytes }, { count: 0, storedBytes: usage.storedBytes - record.storedBytes }, pairs.bytes);
      }
      if (Object.keys(fields).length > 0) await repository.update(record.id, fields, trx);
      if (!pairs) return;
      await pairs.write(trx);
      await enqueueIngestion(jobs, record, trx);
    });
    if (pairs) this.options.notifyWorker();
  }
}
