import type { Knex } from 'knex';
import { SingleFlight } from '../../db/single-flight.js';
import { namedStatement } from '../../db/named-statements.js';
import type {
  AccessLevel, Model, PersonalityType, ToneType, WebsiteIntegration,
} from '@parley/shared';

/** A chatbot row with its resource ids, as the repository reads it. */
export interface ChatbotRecord {
  id: string;
  organisationId: string;
  creator: string;
  name: string;
  welcomeMessage: string;
  createdAt: number;
  chatbotMessageColor: string;
  userMessageColor: string;
  conversationBackgroundColor: string;
  secondaryBackgroundColor: string;
  gradientColors: string[] | null;
  showBadge: boolean;
  enabledEmoji: boolean;
  model: Model;
  accessLevel: AccessLevel;
  personalityType: PersonalityType;
  toneType: ToneType;
  customSystemPrompt: string | null;
  restrictAnswersToResourcesContentResponse: string | null;
  tags: string[];
  passwordHash: string | null;
  websiteIntegration: WebsiteIntegration | null;
  avatarUpdatedAt: number | null;
  resourceIds: string[];
}

const COLUMNS: Record<Exclude<keyof ChatbotRecord, 'resourceIds' | 'avatarUpdatedAt'>, string> = {
  id: 'id', organisationId: 'organisation_id', creator: 'creator', name: 'name', welcomeMessage: 'welcome_message',
  createdAt: 'created_at', chatbotMessageColor: 'chatbot_message_color', userMessageColor: 'user_message_color',
  conversationBackgroundColor: 'conversation_background_color', secondaryBackgroundColor: 'secondary_background_color',
  gradientColors: 'gradient_colors', showBadge: 'show_badge', enabledEmoji: 'enabled_emoji', model: 'model',
  accessLevel: 'access_level', personalityType: 'personality_type', toneType: 'tone_type',
  customSystemPrompt: 'custom_system_prompt',
  restrictAnswersToResourcesContentResponse: 'restrict_answers_to_resources_content_response',
  tags: 'tags', passwordHash: 'password_hash', websiteIntegration: 'website_integration',
};

type Row = Record<string, unknown>;

function toRecord(row: Row): ChatbotRecord {
  const record = {} as Record<string, unknown>;
  for (const [field, column] of Object.entries(COLUMNS)) record[field] = row[column];
  record.resourceIds = (row.resource_ids as string[] | null) ?? [];
  record.avatarUpdatedAt = (row.avatar_updated_at as number | null) ?? null;
  return record as unknown as ChatbotRecord;
}

function toRow(fields: Partial<ChatbotRecord>): Row {
  const row: Row = {};
  for (const [field, value] of Object.entries(fields)) {
    const column = COLUMNS[field as keyof typeof COLUMNS];
    if (column === undefined || value === undefined) continue;
    row[column] = column === 'website_integration' && value !== null ? JSON.stringify(value) : value;
  }
  return row;
}

/** Named columns, not `c.*`: the reads by id are prepared statements (db/named-statements.ts). */
const SELECTED_COLUMNS = Object.values(COLUMNS).map((column) => `c.${column}`);

/** Chatbots of one organisation; every read filters by organisation. */
export class ChatbotsRepository {
  /** Concurrent reads of one chatbot (every question of a burst reads its chatbot) share one query. */
  private readonly reads = new SingleFlight<ChatbotRecord | undefined>();

  constructor(private readonly db: Knex) {}

  private select(db: Knex = this.db) {
    return db('chatbots as c').select(
      ...SELECTED_COLUMNS,
      db.raw('coalesce((select array_agg(cr.resource_id order by cr.position) from chatbot_resources cr where cr.chatbot_id = c.id), ?::text[]) as resource_ids', ['{}']),
      db.raw('(select a.updated_at from chatbot_avatars a where a.chatbot_id = c.id) as avatar_updated_at'),
    );
  }

  /** A chatbot of the organisation; the record may be shared with concurrent callers (read-only). */
  async find(organisationId: string, id: string, db: Knex = this.db): Promise<ChatbotRecord | undefined> {
    const read = async () => {
      const row = await namedStatement(db, this.select(db).where({ 'c.id': id, 'c.organisation_id': organisationId }).first(), 'chatbot_by_id');
      return row ? Object.freeze(toRecord(row)) : undefined;
    };
    return db === this.db ? this.reads.run(`${organisationId}/${id}`, read) : read();
  }

  /** A chatbot by id alone: only for the public embed endpoints, which have no organisation. */
  async findPublic(id: string): Promise<ChatbotRecord | undefined> {
    return this.reads.run(`/${id}`, async () => {
      const row = await namedStatement(this.db, this.select().where({ 'c.id': id }).first(), 'public_chatbot_by_id');
      return row ? Object.freeze(toRecord(row)) : undefined;
    });
  }

  async list(organisationId: string): Promise<ChatbotRecord[]> {
    const rows = await this.select().where({ 'c.organisation_id': organisationId }).orderBy([
      { column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'desc' },
    ]);
    return rows.map(toRecord);
  }

  async insert(record: Omit<ChatbotRecord, 'avatarUpdatedAt'>): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('chatbots').insert(toRow(record));
      await this.replaceResources(trx, record.id, record.resourceIds);
    });
    this.reads.clear();
  }

  async update(organisationId: string, id: string, fields: Partial<ChatbotRecord>): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = toRow(fields);
      if (Object.keys(row).length > 0) await trx('chatbots').where({ id, organisation_id: organisationId }).update(row);
      if (fields.resourceIds) await this.replaceResources(trx, id, fields.resourceIds);
    });
    this.reads.clear();
  }

  async delete(organisationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('chatbots').where({ id, organisation_id: organisationId }).delete();
    this.reads.clear();
    return deleted > 0;
  }

  private async replaceResources(trx: Knex, chatbotId: string, resourceIds: readonly string[]): Promise<void> {
    await trx('chatbot_resources').where({ chatbot_id: chatbotId }).delete();
    const unique = [...new Set(resourceIds)];
    if (unique.length > 0) {
      await trx('chatbot_resources').insert(unique.map((resourceId, position) => ({ chatbot_id: chatbotId, resource_id: resourceId, position })));
    }
  }

  /** The ids among `ids` that are not resources of the organisation. */
  async missingResources(organisationId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = new Set((await this.db('resources').where({ organisation_id: organisationId }).whereIn('id', [...new Set(ids)]).pluck('id')) as string[]);
    return ids.filter((id) => !found.has(id));
  }

  async saveAvatar(chatbotId: string, contentType: string, data: Buffer, now: number): Promise<void> {
    await this.db('chatbot_avatars')
      .insert({ chatbot_id: chatbotId, content_type: contentType, data, updated_at: now })
      .onConflict('chatbot_id').merge();
    this.reads.clear();
  }

  async findAvatar(chatbotId: string): Promise<{ contentType: string; data: Buffer; updatedAt: number } | undefined> {
    const row = await this.db('chatbot_avatars').where({ chatbot_id: chatbotId }).first();
    return row ? { contentType: row.content_type, data: Buffer.from(row.data), updatedAt: row.updated_at } : undefined;
  }
}

