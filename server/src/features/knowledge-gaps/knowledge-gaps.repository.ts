import type { Knex } from 'knex';
import type { GapOccurrence } from './group-gaps.js';

/** Why a knowledge gap was closed. */
export type GapClosureReason = 'DISMISSED' | 'ANSWERED';

/** Conversations read per listing, at most (the latest). */
const MAX_CONVERSATIONS = 2000;

/**
 * Unanswered questions of conversations, closed knowledge gaps and each chatbot's saved-answers
 * resource. Filters by chatbot: the services checked its organisation.
 */
export class KnowledgeGapsRepository {
  constructor(private readonly db: Knex) {}

  /** Each unanswered question of the chatbot's latest analysed conversations created in `[start, end]`. */
  async occurrences(chatbotId: string, start: number, end: number): Promise<GapOccurrence[]> {
    const rows: Record<string, unknown>[] = await this.db('conversations')
      .where('chatbot_id', chatbotId).whereBetween('created_at', [start, end])
      .whereRaw("jsonb_typeof(analysis_result->'unansweredQuestions') = 'array'")
      .whereRaw("jsonb_array_length(analysis_result->'unansweredQuestions') > 0")
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(MAX_CONVERSATIONS)
      .select('id', 'created_at', 'updated_at', this.db.raw("analysis_result->'unansweredQuestions' AS unanswered"));
    return rows.flatMap((row) => (row.unanswered as unknown[]).filter((q): q is string => typeof q === 'string' && q.trim() !== '')
      .map((question) => ({
        question, conversationId: row.id as string, conversationCreatedAt: Number(row.created_at), askedAt: Number(row.updated_at),
      })));
  }

  /**
   * For each question, whether any passage of the resources holds one of its words (full-text
   * lexemes, English configuration, as retrieval ranks them): a question with none is off-topic.
   * One statement for all questions, each an EXISTS probe of the chunks' full-text index.
   */
  async relatedQuestions(organisationId: string, resourceIds: readonly string[], questions: readonly string[]): Promise<boolean[]> {
    if (questions.length === 0) return [];
    if (resourceIds.length === 0) return questions.map(() => false);
    const result = await this.db.raw(
      `SELECT q.i::int AS i, EXISTS (
         SELECT 1 FROM resource_chunks c
         WHERE c.organisation_id = ? AND c.resource_id = ANY(?::text[])
           AND c.tsv @@ (SELECT string_agg(quote_literal(t.lexeme), ' | ')::tsquery FROM unnest(to_tsvector('english', q.question)) AS t)
       ) AS related
       FROM unnest(?::text[]) WITH ORDINALITY AS q(question, i)`,
      [organisationId, [...resourceIds], [...questions]],
    );
    const related = new Map((result.rows as { i: number; related: boolean }[]).map((row) => [Number(row.i), row.related]));
    return questions.map((_, index) => related.get(index + 1) === true);
  }

  /** Closure times of the chatbot's closed gaps, by gap id. */
  async closures(chatbotId: string): Promise<Map<string, number>> {
    const rows: { gap_id: string; closed_at: string | number }[] = await this.db('knowledge_gap_closures').where('chatbot_id', chatbotId).select('gap_id', 'closed_at');
    return new Map(rows.map((row) => [row.gap_id, Number(row.closed_at)]));
  }

  /** Closes a gap now (again: the time moves forward). */
  async close(chatbotId: string, gapId: string, reason: GapClosureReason, closedAt: number, trx: Knex = this.db): Promise<void> {
    await trx('knowledge_gap_closures').insert({ chatbot_id: chatbotId, gap_id: gapId, reason, closed_at: closedAt })
      .onConflict(['chatbot_id', 'gap_id']).merge(['reason', 'closed_at']);
  }

  /** The chatbot's saved-answers resource id, if it has one. */
  async savedAnswersResource(chatbotId: string): Promise<string | undefined> {
    const row = await this.db('chatbot_saved_answers').where('chatbot_id', chatbotId).first('resource_id') as { resource_id: string } | undefined;
    return row?.resource_id;
  }

  /** Records the chatbot's saved-answers resource; the first one recorded wins, and is returned. */
  async setSavedAnswersResource(chatbotId: string, resourceId: string): Promise<string> {
    await this.db('chatbot_saved_answers').insert({ chatbot_id: chatbotId, resource_id: resourceId }).onConflict('chatbot_id').ignore();
    return (await this.savedAnswersResource(chatbotId)) ?? resourceId;
  }
}
