import type { Knex } from 'knex';
import type { PagePosition } from '../conversations/page-cursor.js';

/** A lead row, as the repository reads it. */
export interface LeadRecord {
  id: string;
  organisationId: string;
  chatbotId: string;
  conversationId: string | null;
  createdAt: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  /** The page the visitor left the lead on (extension). */
  pageUrl: string | null;
}

type Row = Record<string, unknown>;

function toRecord(row: Row): LeadRecord {
  return {
    id: row.id as string, organisationId: row.organisation_id as string, chatbotId: row.chatbot_id as string,
    conversationId: (row.conversation_id as string | null) ?? null, createdAt: Number(row.created_at),
    name: (row.name as string | null) ?? null, email: (row.email as string | null) ?? null, phone: (row.phone as string | null) ?? null,
    pageUrl: (row.page_url as string | null) ?? null,
  };
}

/** Leads of a chatbot; every query filters by chatbot (and organisation where it writes). */
export class LeadsRepository {
  constructor(private readonly db: Knex) {}

  async insert(record: LeadRecord): Promise<void> {
    await this.db('leads').insert({
      id: record.id, organisation_id: record.organisationId, chatbot_id: record.chatbotId, conversation_id: record.conversationId,
      created_at: record.createdAt, name: record.name, email: record.email, phone: record.phone, page_url: record.pageUrl,
    });
  }

  /**
   * The chatbot's leads created in `[start, end]`, newest first (the (chatbot_id, created_at)
   * index); with `page`, at most `limit` of those after `after`.
   */
  async listByChatbot(chatbotId: string, start: number, end: number, page?: { after?: PagePosition; limit: number }): Promise<LeadRecord[]> {
    const query = this.db('leads')
      .where('chatbot_id', chatbotId)
      .whereBetween('created_at', [start, end])
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    if (page?.after) query.whereRaw('(created_at, id) < (?, ?)', [page.after.createdAt, page.after.id]);
    if (page) query.limit(page.limit);
    return (await query).map(toRecord);
  }

  /** Whether the conversation exists and belongs to the chatbot. */
  async conversationExists(organisationId: string, chatbotId: string, conversationId: string): Promise<boolean> {
    const row = await this.db('conversations')
      .where({ id: conversationId, chatbot_id: chatbotId, organisation_id: organisationId }).first('id');
    return row !== undefined;
  }
}
