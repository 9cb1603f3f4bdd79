import type { Knex } from 'knex';
import type { FeedbackRating } from '@parley/shared';

/** A stored verdict, with the text of the answer it is about when the conversation still has it. */
export interface FeedbackRecord {
  id: string;
  organisationId: string;
  chatbotId: string;
  conversationId: string;
  messageIndex: number;
  rating: FeedbackRating;
  comment: string | null;
  createdAt: number;
}

/** The conversation a verdict is about, as far as the feedback feature needs it. */
export interface RatedConversation {
  visitorTokenHash: string | null;
  messages: { text: string; fromUser: boolean }[];
}

/** A 👎 with what the gap queue needs: the visitor's question before the answer, the answer and the comment. */
export interface DownRatedAnswer {
  conversationId: string;
  messageIndex: number;
  /** The nearest visitor message before the answer; `null` when the answer has none before it. */
  question: string | null;
  /** `null` when the conversation no longer holds an answer at that index. */
  answer: string | null;
  comment: string | null;
  createdAt: number;
}

type Row = Record<string, unknown>;

const parseMessages = (value: unknown): RatedConversation['messages'] =>
  (typeof value === 'string' ? JSON.parse(value) : value) as RatedConversation['messages'];

/** Verdicts on answers; every query filters by chatbot. */
export class FeedbackRepository {
  constructor(private readonly db: Knex) {}

  /** The chatbot's conversation with its visitor token hash and messages, or `undefined`. */
  async findConversation(chatbotId: string, conversationId: string): Promise<RatedConversation | undefined> {
    const row = await this.db('conversations').where({ id: conversationId, chatbot_id: chatbotId })
      .first('visitor_token_hash', 'messages') as Row | undefined;
    return row && { visitorTokenHash: (row.visitor_token_hash as string | null) ?? null, messages: parseMessages(row.messages) };
  }

  /** Stores the verdict, replacing an earlier one on the same answer. */
  async upsert(record: FeedbackRecord): Promise<void> {
    await this.db('message_feedback').insert({
      id: record.id, organisation_id: record.organisationId, chatbot_id: record.chatbotId, conversation_id: record.conversationId,
      message_index: record.messageIndex, rating: record.rating, comment: record.comment, created_at: record.createdAt,
    }).onConflict(['conversation_id', 'message_index']).merge(['rating', 'comment', 'created_at']);
  }

  /** How many 👍 and 👎 the chatbot's answers got in `[start, end]`. */
  async countByChatbot(chatbotId: string, start: number, end: number): Promise<{ up: number; down: number }> {
    const rows: Row[] = await this.db('message_feedback').where('chatbot_id', chatbotId).whereBetween('created_at', [start, end])
      .groupBy('rating').select('rating').count({ count: '*' });
    const count = (rating: FeedbackRating) => Number(rows.find((row) => row.rating === rating)?.count ?? 0);
    return { up: count('up'), down: count('down') };
  }

  /** The chatbot's verdicts in `[start, end]`, newest first, each with its conversation's messages. */
  async listByChatbot(chatbotId: string, start: number, end: number): Promise<(FeedbackRecord & { messages: RatedConversation['messages'] })[]> {
    const rows: Row[] = await this.db('message_feedback as f')
      .join('conversations as c', 'c.id', 'f.conversation_id')
      .where('f.chatbot_id', chatbotId)
      .whereBetween('f.created_at', [start, end])
      .orderBy([{ column: 'f.created_at', order: 'desc' }, { column: 'f.id', order: 'desc' }])
      .select('f.*', 'c.messages');
    return rows.map((row) => ({
      id: row.id as string, organisationId: row.organisation_id as string, chatbotId: row.chatbot_id as string,
      conversationId: row.conversation_id as string, messageIndex: row.message_index as number, rating: row.rating as FeedbackRating,
      comment: (row.comment as string | null) ?? null, createdAt: Number(row.created_at), messages: parseMessages(row.messages),
    }));
  }

  /** The chatbot's 👍 and 👎 given in `[start, end]`, per UTC day (`YYYY-MM-DD`), oldest first. */
  async countByDay(organisationId: string, chatbotId: string, start: number, end: number): Promise<{ date: string; up: number; down: number }[]> {
    const day = "to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')";
    const rows: Row[] = await this.db('message_feedback')
      .where({ organisation_id: organisationId, chatbot_id: chatbotId }).whereBetween('created_at', [start, end])
      .groupByRaw(`${day}, rating`).orderByRaw(day)
      .select(this.db.raw(`${day} AS day`), 'rating').count({ count: '*' });
    const days = new Map<string, { date: string; up: number; down: number }>();
    for (const row of rows) {
      const date = row.day as string;
      const entry = days.get(date) ?? { date, up: 0, down: 0 };
      entry[row.rating as FeedbackRating] += Number(row.count);
      days.set(date, entry);
    }
    return [...days.values()];
  }

  /**
   * The chatbot's 👎 given in `[start, end]`, newest first, each with the visitor question before
   * the answer; both texts are picked out of the conversation by the database, so nothing else of
   * it is read. At most `limit` of them.
   */
  async listDownRated(organisationId: string, chatbotId: string, start: number, end: number, limit: number): Promise<DownRatedAnswer[]> {
    const rows: Row[] = await this.db('message_feedback as f')
      .join('conversations as c', 'c.id', 'f.conversation_id')
      .where({ 'f.organisation_id': organisationId, 'f.chatbot_id': chatbotId, 'f.rating': 'down' })
      .whereBetween('f.created_at', [start, end])
      .orderBy([{ column: 'f.created_at', order: 'desc' }, { column: 'f.id', order: 'desc' }])
      .limit(limit)
      .select('f.conversation_id', 'f.message_index', 'f.comment', 'f.created_at',
        this.db.raw("CASE WHEN c.messages->f.message_index->>'fromUser' = 'false' THEN c.messages->f.message_index->>'text' END AS answer"),
        this.db.raw(`(SELECT m->>'text' FROM jsonb_array_elements(c.messages) WITH ORDINALITY AS e(m, position)
          WHERE e.position <= f.message_index AND m->>'fromUser' = 'true' ORDER BY e.position DESC LIMIT 1) AS question`));
    return rows.map((row) => ({
      conversationId: row.conversation_id as string, messageIndex: row.message_index as number,
      question: (row.question as string | null) ?? null, answer: (row.answer as string | null) ?? null,
      comment: (row.comment as string | null) ?? null, createdAt: Number(row.created_at),
    }));
  }
}
