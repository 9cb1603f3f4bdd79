import type { Knex } from 'knex';

/** What the statistics need of one conversation (never its messages' text). */
export interface ConversationFacts {
  id: string;
  createdAt: number;
  messages: number;
  /** Visitor messages. */
  asked: number;
  sentiment: string | null;
  intent: string | null;
  unanswered: string[];
}

/** Reads conversation facts for the insights; filters by chatbot (the service checked its organisation). */
export class InsightsRepository {
  constructor(private readonly db: Knex) {}

  /** The facts of the chatbot's conversations created in `[start, end]`, newest first. */
  async conversationFacts(chatbotId: string, start: number, end: number): Promise<ConversationFacts[]> {
    const rows: Record<string, unknown>[] = await this.db('conversations')
      .where('chatbot_id', chatbotId).whereBetween('created_at', [start, end])
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .select('id', 'created_at', this.db.raw('jsonb_array_length(messages) AS messages'), this.db.raw(
        "(SELECT count(*) FROM jsonb_array_elements(messages) m WHERE m->>'fromUser' = 'true') AS asked",
      ), this.db.raw("analysis_result->'extractedData'->>'sentimentAnalysis' AS sentiment"),
      this.db.raw("analysis_result->'extractedData'->>'intentClassification' AS intent"),
      this.db.raw("analysis_result->'unansweredQuestions' AS unanswered"));
    return rows.map((row) => ({
      id: row.id as string, createdAt: Number(row.created_at), messages: Number(row.messages), asked: Number(row.asked),
      sentiment: (row.sentiment as string | null) ?? null, intent: (row.intent as string | null) ?? null,
      unanswered: Array.isArray(row.unanswered) ? row.unanswered.filter((q): q is string => typeof q === 'string') : [],
    }));
  }
}
