import type { Knex } from 'knex';
import {
  SYNC_FREQUENCY_MS,
  type PageQuery, type PassageListing, type Resource, type TextResourceContent, type TextResourceUpdate, type WebsiteResourceContent, type WebsiteResourceUpdate,
} from '@parley/shared';
import { badRequest, conflict } from '../../errors/http-error.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { enqueueIngestion, ingestionDedupeKey } from './ingestion/ingestion-worker.js';
import { toResourceResponse } from './resource-response.js';
import type { ResourcePassagesRepository } from './resource-passages.repository.js';
import type { ResourceFields, ResourceRecord, ResourcesRepository } from './resources.repository.js';
import { assertWithinPlan, type ResourcesService } from './resources.service.js';
import { sourceTypesWhere } from './sources/registry.js';
import type { ResourceOf } from './sources/source-module.js';
import { assertValidSelectors } from './sources/web/web.source.js';

/** Resource types that `sync now` re-reads from their source, and those edited as text (their modules say). */
const SYNCING_TYPES = sourceTypesWhere((module) => module.syncs);
const EDITABLE_TYPES = sourceTypesWhere((module) => module.editable);
const DEFAULT_PASSAGES_PAGE = 50;

export interface ResourceUpkeepOptions {
  db: Knex;
  resources: ResourcesService;
  repository: ResourcesRepository;
  passages: ResourcePassagesRepository;
  jobs: JobQueue;
  notifyWorker: () => void;
}

/** Keeping knowledge current (extensions): edit a text resource, sync now, read the passages. */
export class ResourceUpkeepService {
  constructor(private readonly options: ResourceUpkeepOptions) {}

  /** `GET /v1/resource/text/{id}`: the text to edit. @throws 400 for another type; 404 */
  async getText(auth: AuthContext, id: string): Promise<TextResourceContent> {
    const record = await this.textRecord(auth, id);
    const content = (await this.options.repository.findForIngestion(id))?.textContent ?? '';
    return { id, name: record.fileName, content, tags: record.tags };
  }

  /** @throws 400 for another type; 404 */
  private async textRecord(auth: AuthContext, id: string): Promise<ResourceRecord> {
    const record = await this.options.resources.getResource(auth, id);
    if (!EDITABLE_TYPES.includes(record.type)) throw badRequest(`resource ${id} is a ${record.type} resource; only ${EDITABLE_TYPES.join(' and ')} resources can be edited`);
    return record;
  }

  /**
   * `PUT /v1/resource/text/{id}`: renames, re-tags and/or replaces the text. New content is
   * re-indexed by the ingestion job under the same id; its chunk swap is atomic, so the old text
   * stays searchable until the new one is in.
   * @throws 400 for another type; 402 when the new text exceeds the plan's storage; 404
   */
  async updateText(auth: AuthContext, id: string, body: TextResourceUpdate): Promise<Resource> {
    const record = await this.textRecord(auth, id);
    const fields: Partial<ResourceFields> = {};
    if (body.name !== undefined) fields.fileName = body.name;
    if (body.tags !== undefined) fields.tags = body.tags;
    const reindex = body.content !== undefined && body.content !== (await this.options.repository.findForIngestion(id))?.textContent;
    if (reindex) Object.assign(fields, { textContent: body.content, storedBytes: Buffer.byteLength(body.content!) });
    await this.options.db.transaction(async (trx) => {
      if (reindex && auth.plan.maxStorageBytes !== undefined) {
        const usage = await this.options.repository.lockUsage(trx, auth.organisationId);
        assertWithinPlan({ maxStorageBytes: auth.plan.maxStorageBytes }, { count: 0, storedBytes: usage.storedBytes - record.storedBytes }, fields.storedBytes!);
      }
      if (Object.keys(fields).length > 0) await this.options.repository.update(id, fields, trx);
      if (reindex) await enqueueIngestion(this.options.jobs, record, trx);
    });
    if (reindex) this.options.notifyWorker();
    return toResourceResponse({ ...record, ...fields });
  }

  /** @throws 400 for another type; 404 */
  private async websiteRecord(auth: AuthContext, id: string): Promise<ResourceOf<'WEB'> & { source: { url: string } }> {
    const record = await this.options.resources.getResource(auth, id);
    if (record.type !== 'WEB' || record.source.url === undefined) throw badRequest(`resource ${id} is a ${record.type} resource; only WEB resources have website settings`);
    return record as ResourceOf<'WEB'> & { source: { url: string } };
  }

  /** `GET /v1/resource/website/{id}`: the website's settings as given. @throws 400 for another type; 404 */
  async getWebsite(auth: AuthContext, id: string): Promise<WebsiteResourceContent> {
    const { source, tags } = await this.websiteRecord(auth, id);
    return { id, url: source.url, subLinks: source.subLinks, syncFrequency: source.syncFrequency ?? 'NEVER', settings: source.settings, tags };
  }

  /**
   * `PUT /v1/resource/website/{id}`: changes what is crawled and how (re-crawled under the same id,
   * the old pages answering until the new crawl is in), how often, and the tags.
   * @throws 400 for another type or an invalid selector; 404
   */
  async updateWebsite(auth: AuthContext, id: string, body: WebsiteResourceUpdate): Promise<Resource> {
    const record = await this.websiteRecord(auth, id);
    if (body.settings) assertValidSelectors(body.settings);
    const { url, subLinks, settings, syncFrequency } = body;
    const source = { ...(url === undefined ? {} : { url }), ...(subLinks ? { subLinks } : {}), ...(settings ? { settings } : {}), ...(syncFrequency ? { syncFrequency } : {}) };
    const changed = (key: 'url' | 'subLinks' | 'settings') => body[key] !== undefined && JSON.stringify(body[key]) !== JSON.stringify(record.source[key]);
    const recrawl = changed('url') || changed('subLinks') || changed('settings');
    const fields: Partial<ResourceFields> = {
      ...(body.tags ? { tags: body.tags } : {}),
      // A website is named by its URL until its crawl names it otherwise.
      ...(url !== undefined && record.fileName === record.source.url ? { fileName: url } : {}),
    };
    if (syncFrequency !== undefined) {
      const period = SYNC_FREQUENCY_MS[syncFrequency];
      fields.nextSyncAt = period === undefined ? null : (record.lastSync ?? Date.now()) + period;
    }
    if (recrawl) fields.aiProcessingStatus = record.aiProcessingStatus === 'IN_PROGRESS' ? 'IN_PROGRESS' : 'NOT_STARTED';
    const updated = { ...record, ...fields, source: { ...record.source, ...source } } as ResourceRecord;
    await this.options.db.transaction(async (trx) => {
      await this.options.repository.update(id, { ...fields, ...(Object.keys(source).length > 0 ? { source } : {}) }, trx);
      if (recrawl) await enqueueIngestion(this.options.jobs, record, trx);
    });
    if (recrawl) this.options.notifyWorker();
    return toResourceResponse(updated);
  }

  /**
   * `POST /v1/resource/{id}/sync`: queues a re-read of a website or hosted video now.
   * @throws 400 for other types; 404; 409 while a sync of it is queued or running.
   */
  async syncNow(auth: AuthContext, id: string): Promise<Resource> {
    const record = await this.options.resources.getResource(auth, id);
    if (!SYNCING_TYPES.includes(record.type)) throw badRequest(`resource ${id} is a ${record.type} resource; only ${SYNCING_TYPES.join(' and ')} resources sync`);
    const key = ingestionDedupeKey(id);
    const busy = () => conflict(`a sync of resource ${id} is already queued or running`);
    if (await this.options.jobs.isPending(key)) throw busy();
    // A concurrent request may have queued one since: the deduplicated enqueue tells.
    if (await enqueueIngestion(this.options.jobs, record) === undefined) throw busy();
    this.options.notifyWorker();
    return toResourceResponse(record);
  }

  /** `GET /v1/resource/{id}/passages`: a page of the indexed passages. @throws 400 for a bad cursor; 404 */
  async listPassages(auth: AuthContext, id: string, query: PageQuery): Promise<PassageListing> {
    await this.options.resources.getResource(auth, id);
    const offset = query.cursor === undefined ? 0 : Number(query.cursor);
    if (!Number.isSafeInteger(offset) || offset < 0) throw badRequest('cursor must be a nextCursor of the previous page');
    const limit = query.limit ?? DEFAULT_PASSAGES_PAGE;
    const rows = await this.options.passages.page(auth.organisationId, id, offset, limit + 1);
    const passages = rows.slice(0, limit);
    return { passages, ...(rows.length > limit ? { nextCursor: String(offset + limit) } : {}) };
  }
}
