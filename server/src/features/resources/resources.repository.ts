import type { Knex } from 'knex';
import type { AiProcessingStatus, ResourceType } from '@parley/shared';
import { sourceModuleOf } from './sources/registry.js';
import type { ResourceOf, SourceOf } from './sources/source-module.js';

/** The fields every resource has, whatever its type (camelCase; nulls where a field is not set). */
export interface ResourceFields {
  id: string;
  organisationId: string;
  creator: string;
  fileName: string;
  createdAt: number;
  aiProcessingStatus: AiProcessingStatus;
  tags: string[];
  /** A TEXT resource's text; only `findForIngestion` reads it (it may be 5 MB). */
  textContent: string | null;
  lastSync: number | null;
  nextSyncAt: number | null;
  failureReason: string | null;
  /** How far the running read has come (0..1), when it can tell (a video's transcription). */
  processingProgress: number | null;
  storedBytes: number;
}

/** A resource row as the service sees it: the common fields and its type's data (`sources/<type>/`). */
export type ResourceRecord = { [T in ResourceType]: ResourceOf<T> }[ResourceType];

/** Fields to write; `source` is merged into the stored per-type data key by key. */
export type ResourceUpdate = Partial<ResourceFields> & { source?: Partial<SourceOf<ResourceType>> };

const COLUMNS: Record<keyof ResourceFields | 'type' | 'source', string> = {
  id: 'id', organisationId: 'organisation_id', creator: 'creator', fileName: 'file_name', type: 'type',
  createdAt: 'created_at', aiProcessingStatus: 'ai_processing_status', tags: 'tags', source: 'source',
  textContent: 'text_content', lastSync: 'last_sync', nextSyncAt: 'next_sync_at',
  failureReason: 'failure_reason', storedBytes: 'stored_bytes', processingProgress: 'processing_progress',
};
/** Everything but the (possibly 5 MB) text content, for listings and status reads. */
const SUMMARY_COLUMNS = Object.values(COLUMNS).filter((column) => column !== 'text_content');

type Row = Record<string, unknown>;

/** Maps a row to a record, parsing `source` with its type's schema (a row that does not fit is a bug: it throws). */
function toRecord(row: Row): ResourceRecord {
  const record = {} as Record<string, unknown>;
  for (const [field, column] of Object.entries(COLUMNS)) record[field] = row[column] ?? null;
  record.storedBytes = Number(row.stored_bytes ?? 0);
  record.source = sourceModuleOf(row.type as ResourceType).schema.parse(row.source ?? {});
  return record as unknown as ResourceRecord;
}

/** Maps record fields to columns; `undefined` fields are left out, `source` is written whole. */
function toResourceRow(fields: Partial<Record<keyof typeof COLUMNS, unknown>>): Row {
  const row: Row = {};
  for (const [field, value] of Object.entries(fields)) {
    const column = COLUMNS[field as keyof typeof COLUMNS];
    if (column === undefined || value === undefined) continue;
    row[column] = column === 'source' ? JSON.stringify(value) : value;
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

  /** Writes fields; a `source` is merged into the stored one (jsonb `||`), so a read's outcome never drops data it did not read. */
  async update(id: string, fields: ResourceUpdate, db: Knex = this.db): Promise<number> {
    const { source, ...rest } = fields;
    const row = toResourceRow(rest);
    if (source !== undefined) row.source = db.raw('source || ?::jsonb', [JSON.stringify(source)]);
    return db('resources').where({ id }).update(row);
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
