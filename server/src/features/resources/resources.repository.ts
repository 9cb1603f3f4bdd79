import type { Knex } from 'knex';
import type { AiProcessingStatus, ResourceType, SyncFrequency, WebsiteSettings } from '@parley/shared';

/** A resource row as the service sees it (camelCase; nulls where a field does not apply). */
export interface ResourceRecord {
  id: string;
  organisationId: string;
  creator: string;
  fileName: string;
  type: ResourceType;
  createdAt: number;
  aiProcessingStatus: AiProcessingStatus;
  tags: string[];
  hostedVideoId: number | null;
  driveResourceFile: Record<string, string> | null;
  websiteUrl: string | null;
  websiteSubLinks: string[] | null;
  websiteSettings: WebsiteSettings | null;
  /** The pages the last crawl indexed (shown as `website.subLinks` when pages are discovered). */
  websiteIndexedLinks: string[] | null;
  syncFrequency: SyncFrequency | null;
  videoLength: number | null;
  fileSize: number | null;
  storagePath: string | null;
  textContent: string | null;
  lastSync: number | null;
  nextSyncAt: number | null;
  failureReason: string | null;
  /** How far the running read has come (0..1), when it can tell (a video's transcription). */
  processingProgress: number | null;
  storedBytes: number;
}

const COLUMNS: Record<keyof ResourceRecord, string> = {
  id: 'id', organisationId: 'organisation_id', creator: 'creator', fileName: 'file_name', type: 'type',
  createdAt: 'created_at', aiProcessingStatus: 'ai_processing_status', tags: 'tags', hostedVideoId: 'hosted_video_id',
  driveResourceFile: 'drive_resource_file', websiteUrl: 'website_url', websiteSubLinks: 'website_sub_links',
  websiteSettings: 'website_settings', websiteIndexedLinks: 'website_indexed_links', syncFrequency: 'sync_frequency', videoLength: 'video_length', fileSize: 'file_size',
  storagePath: 'storage_path', textContent: 'text_content', lastSync: 'last_sync', nextSyncAt: 'next_sync_at',
  failureReason: 'failure_reason', storedBytes: 'stored_bytes', processingProgress: 'processing_progress',
};
const JSON_COLUMNS = new Set(['drive_resource_file', 'website_settings', 'website_indexed_links']);
/** Everything but the (possibly 5 MB) text content, for listings and status reads. */
const SUMMARY_COLUMNS = Object.values(COLUMNS).filter((column) => column !== 'text_content');

type Row = Record<string, unknown>;

function toRecord(row: Row): ResourceRecord {
  const record = {} as Record<string, unknown>;
  for (const [field, column] of Object.entries(COLUMNS)) record[field] = row[column] ?? null;
  record.storedBytes = Number(row.stored_bytes ?? 0);
  return record as unknown as ResourceRecord;
}

/** Maps record fields to columns; `undefined` fields are left out. */
export function toResourceRow(fields: Partial<ResourceRecord>): Row {
  const row: Row = {};
  for (const [field, value] of Object.entries(fields)) {
    const column = COLUMNS[field as keyof ResourceRecord];
    if (column === undefined || value === undefined) continue;
    row[column] = JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value;
  }
  return row;
}

/** What an organisation's resources use of its plan. */
export interface ResourceUsage { count: number; storedBytes: number }

/** Resources of one organisation; every read filters by organisation. */
export class ResourcesRepository {
  constructor(private readonly db: Knex) {}

  async find(organisationId: string, id: string, db: Knex = this.db): Promise<ResourceRecord | undefined> {
    const row = await db('resources').select(SUMMARY_COLUMNS).where({ id, organisation_id: organisationId }).first();
    return row ? toRecord(row) : undefined;
  }

  /** A resource with its text content, for ingestion (which has no caller organisation). */
  async findForIngestion(id: string, db: Knex = this.db): Promise<ResourceRecord | undefined> {
    const row = await db('resources').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  async list(organisationId: string): Promise<ResourceRecord[]> {
    const rows = await this.db('resources').select(SUMMARY_COLUMNS).where({ organisation_id: organisationId })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    return rows.map(toRecord);
  }

  async insert(record: ResourceRecord, db: Knex = this.db): Promise<void> {
    await db('resources').insert(toResourceRow(record));
  }

  async update(id: string, fields: Partial<ResourceRecord>, db: Knex = this.db): Promise<number> {
    return db('resources').where({ id }).update(toResourceRow(fields));
  }

  async delete(organisationId: string, id: string, db: Knex = this.db): Promise<boolean> {
    return (await db('resources').where({ id, organisation_id: organisationId }).delete()) > 0;
  }

  /** Ids of the chatbots that use a resource (they block its deletion). */
  async chatbotsUsing(resourceId: string, db: Knex = this.db): Promise<string[]> {
    return db('chatbot_resources').where({ resource_id: resourceId }).orderBy('chatbot_id').pluck('chatbot_id');
  }

  /**
   * The organisation's usage, read under a row lock on the organisation so that concurrent
   * creations are counted one after another (quota checks cannot both pass). Call in a transaction.
   */
  async lockUsage(trx: Knex, organisationId: string): Promise<ResourceUsage> {
    await trx('organisations').where({ id: organisationId }).forUpdate().first('id');
    const row = await trx('resources').where({ organisation_id: organisationId })
      .first(trx.raw('count(*) as count'), trx.raw('coalesce(sum(stored_bytes), 0) as stored_bytes'));
    return { count: Number(row?.count ?? 0), storedBytes: Number(row?.stored_bytes ?? 0) };
  }

  /**
   * Takes the WEB resources whose next sync is due: clears their `next_sync_at` (so no other
   * instance takes them) and returns them. Call in a transaction with the enqueueing.
   */
  async claimDueSyncs(trx: Knex, now: number, limit: number): Promise<{ id: string; organisationId: string }[]> {
    const result = await trx.raw(
      `UPDATE resources SET next_sync_at = NULL WHERE id IN (
         SELECT id FROM resources WHERE next_sync_at <= ? ORDER BY next_sync_at LIMIT ? FOR UPDATE SKIP LOCKED)
       RETURNING id, organisation_id`,
      [now, limit],
    );
    return (result.rows as { id: string; organisation_id: string }[]).map((row) => ({ id: row.id, organisationId: row.organisation_id }));
  }
}
