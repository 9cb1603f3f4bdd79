import type { Knex } from 'knex';
import {
  conversationChars, type AnalysisResult, type AnalysisStatus, type ConversationSource, type ConversationSourceType,
  type ConversationState, type FeedbackRating, type StoredMessage,
} from '@parley/shared';
import { toLikePattern, type PagePosition } from './page-cursor.js';

/** A conversation row, as the repository reads it. */
export interface ConversationRecord {
  id: string;
  organisationId: string;
  chatbotId: string;
  userId: string | null;
  createdAt: number;
  /** Changes on every save; the analysis writes its result only for the version it read. */
  updatedAt: number;
  messages: StoredMessage[];
  source: ConversationSource;
  visitorTokenHash: string | null;
  /** Who has it (issue 35); BOT unless the visitor asked for a person. */
  state: ConversationState;
  analysisStatus: AnalysisStatus;
  analysisResult: AnalysisResult | null;
}

/** Which conversation a save targets; `visitorTokenHash` restricts it to the visitor holding the token. */
export interface ConversationKey {
  organisationId: string;
  chatbotId: string;
  id: string;
  visitorTokenHash?: string;
}

/** Which conversations a page of the listing holds. */
export interface ConversationPageFilter {
  sources: readonly ConversationSourceType[];
  after?: PagePosition;
  search?: string;
  /** Only conversations with at least one answer the visitor rated so. */
  rating?: FeedbackRating;
  /** Only conversations in these states (empty: all). */
  states?: readonly ConversationState[];
  limit?: number;
}

/** Why an update changed nothing. */
/** How far appends may grow one conversation. */
export interface ConversationLimits { messages: number; chars: number }

export type UpdateOutcome = { kind: 'saved'; record: ConversationRecord } | { kind: 'absent' } | { kind: 'too-long' };

type Row = Record<string, unknown>;

const ITEM_FIELDS = `'id', c.id, 'createdAt', c.created_at, 'source', c.source, 'messages', c.messages, 'state', c.state,
  'analysis', CASE WHEN c.analysis_result IS NULL THEN json_build_object('status', c.analysis_status)
              ELSE json_build_object('status', c.analysis_status, 'result', c.analysis_result) END`;

/**
 * One listing item as JSON, in the shape of `ConversationListItemSchema`: `feedback` (the visitor's
 * verdicts, by answer) only when there is some, as optional fields are omitted (decisions.md § JSON).
 * The verdicts are found through the (conversation_id, message_index) unique index.
 */
const ITEM_JSON = `CASE WHEN EXISTS (SELECT 1 FROM message_feedback f WHERE f.conversation_id = c.id)
  THEN json_build_object(${ITEM_FIELDS}, 'feedback', (
    SELECT json_agg(json_strip_nulls(json_build_object(
      'messageIndex', f.message_index, 'rating', f.rating, 'comment', f.comment, 'createdAt', f.created_at)) ORDER BY f.message_index)
    FROM message_feedback f WHERE f.conversation_id = c.id))
  ELSE json_build_object(${ITEM_FIELDS}) END`;

function toRecord(row: Row): ConversationRecord {
  return {
    id: row.id as string, organisationId: row.organisation_id as string, chatbotId: row.chatbot_id as string,
    userId: (row.user_id as string | null) ?? null, createdAt: row.created_at as number, updatedAt: row.updated_at as number,
    messages: row.messages as StoredMessage[], source: row.source as ConversationSource,
    visitorTokenHash: (row.visitor_token_hash as string | null) ?? null, state: (row.state as ConversationState | undefined) ?? 'BOT',
    analysisStatus: row.analysis_status as AnalysisStatus, analysisResult: (row.analysis_result as AnalysisResult | null) ?? null,
  };
}

/** Conversations; every read and write filters by organisation and chatbot. */
export class ConversationsRepository {
  constructor(private readonly db: Knex) {}

  async insert(record: ConversationRecord, db: Knex = this.db): Promise<void> {
    await db('conversations').insert({
      id: record.id, organisation_id: record.organisationId, chatbot_id: record.chatbotId, user_id: record.userId,
      created_at: record.createdAt, updated_at: record.updatedAt, messages: JSON.stringify(record.messages),
      source_type: record.source.type, source: JSON.stringify(record.source), visitor_token_hash: record.visitorTokenHash,
      analysis_status: record.analysisStatus, last_activity_at: record.updatedAt,
    });
  }

  async exists(key: ConversationKey): Promise<boolean> {
    return (await this.whereKey(this.db('conversations'), key).first('id')) !== undefined;
  }

  async find(key: ConversationKey, db: Knex = this.db): Promise<ConversationRecord | undefined> {
    const row = await this.whereKey(db('conversations'), key).first();
    return row ? toRecord(row) : undefined;
  }

  /**
   * Replaces or appends the messages in one statement (concurrent appends never lose messages),
   * bumps `updated_at` strictly and sets the analysis back to PENDING.
   */
  async updateMessages(key: ConversationKey, messages: StoredMessage[], override: boolean, limits: ConversationLimits, now: number, db: Knex = this.db): Promise<UpdateOutcome> {
    const json = JSON.stringify(messages);
    const query = this.whereKey(db('conversations'), key)
      .update({
        messages: override ? db.raw('?::jsonb', [json]) : db.raw('messages || ?::jsonb', [json]),
        // Two saves in the same millisecond must still be two versions for the analysis.
        updated_at: db.raw('greatest(updated_at + 1, ?::bigint)', [now]),
        last_activity_at: now,
        analysis_status: 'PENDING',
      })
      .returning('*');
    if (!override) {
      query.whereRaw('jsonb_array_length(messages) + ? <= ?', [messages.length, limits.messages]);
      query.whereRaw("(SELECT coalesce(sum(length(m->>'text')), 0) FROM jsonb_array_elements(messages) m) + ? <= ?", [conversationChars(messages), limits.chars]);
    }
    const [row] = await query;
    if (row) return { kind: 'saved', record: toRecord(row) };
    return (await this.find(key, db)) ? { kind: 'too-long' } : { kind: 'absent' };
  }

  /**
   * The listing items of the chatbot's conversations created in `[start, end]`, newest first,
   * optionally of some source types only, as one JSON array text built by the database in the
   * shape of `ConversationListItemSchema` (`analysis.result` omitted until there is one).
   * Why not rows: 10k conversations are ~10 MB, and parsing each row's jsonb only to serialise it
   * again cost 1.3× (PostgreSQL) to 3.5× (PGlite) more (server/bench/conversation-listing.bench.ts).
   * The (chatbot_id, created_at) index bounds the scan.
   */
  async listItemsJson(chatbotId: string, start: number, end: number, sources: readonly ConversationSourceType[]): Promise<string> {
    const bindings: Knex.RawBinding[] = [chatbotId, start, end];
    if (sources.length > 0) bindings.push([...sources]);
    const result = await this.db.raw(
      `SELECT coalesce(json_agg(${ITEM_JSON} ORDER BY c.created_at DESC, c.id DESC), '[]')::text AS items
       FROM conversations c
       WHERE c.chatbot_id = ? AND c.created_at BETWEEN ? AND ?${sources.length > 0 ? ' AND c.source_type = ANY(?::text[])' : ''}`,
      bindings,
    );
    return (result.rows as { items: string }[])[0]!.items;
  }

  /**
   * A page of the listing (extension), in the same JSON item shape as {@link listItemsJson}:
   * conversations after `after` (newest first), optionally only those with a message containing
   * `search`, or only those with an answer the visitor rated `rating`; `limit` undefined means the
   * rest of the range. `hasMore` says whether more follow.
   */
  async listPageJson(chatbotId: string, range: { start: number; end: number }, filter: ConversationPageFilter): Promise<{ items: string; last?: PagePosition; hasMore: boolean }> {
    const query = this.db('conversations as c').where('c.chatbot_id', chatbotId).whereBetween('c.created_at', [range.start, range.end]);
    if (filter.sources.length > 0) query.whereIn('c.source_type', [...filter.sources]);
    if (filter.states?.length) query.whereIn('c.state', [...filter.states]);
    if (filter.after) query.whereRaw('(c.created_at, c.id) < (?, ?)', [filter.after.createdAt, filter.after.id]);
    if (filter.search) {
      query.whereRaw("EXISTS (SELECT 1 FROM jsonb_array_elements(c.messages) m WHERE m->>'text' ILIKE ?)", [toLikePattern(filter.search)]);
    }
    if (filter.rating) {
      query.whereRaw('EXISTS (SELECT 1 FROM message_feedback f WHERE f.conversation_id = c.id AND f.rating = ?)', [filter.rating]);
    }
    query.orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'desc' }]);
    if (filter.limit !== undefined) query.limit(filter.limit + 1);
    const rows: Row[] = await query.select('c.id', 'c.created_at', this.db.raw(`${ITEM_JSON}::text AS item`));
    const page = filter.limit !== undefined ? rows.slice(0, filter.limit) : rows;
    const last = page.at(-1);
    return {
      items: `[${page.map((row) => row.item as string).join(',')}]`,
      last: last && { createdAt: Number(last.created_at), id: last.id as string },
      hasMore: rows.length > page.length,
    };
  }

  /** A conversation by id alone: for the analysis job, which carries no organisation. */
  async findById(id: string): Promise<ConversationRecord | undefined> {
    const row = await this.db('conversations').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /**
   * Sets the analysis state of the version `updatedAt` of a conversation. False when the
   * conversation changed (or vanished) since: that version's analysis is obsolete.
   */
  async setAnalysis(id: string, updatedAt: number, status: AnalysisStatus, result?: AnalysisResult): Promise<boolean> {
    const fields: Row = { analysis_status: status };
    if (result) fields.analysis_result = JSON.stringify(result);
    const updated = await this.db('conversations').where({ id, updated_at: updatedAt }).update(fields);
    return updated > 0;
  }

  private whereKey(query: Knex.QueryBuilder, key: ConversationKey): Knex.QueryBuilder {
    query.where({ id: key.id, chatbot_id: key.chatbotId, organisation_id: key.organisationId });
    if (key.visitorTokenHash !== undefined) query.where('visitor_token_hash', key.visitorTokenHash);
    return query;
  }
}
