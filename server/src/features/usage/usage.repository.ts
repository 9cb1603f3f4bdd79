import type { Knex } from 'knex';
import { namedStatement } from '../../db/named-statements.js';

/** Per-organisation, per-month counters (table usage_counters). */
export class UsageRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Adds `count` messages to the month's counter if all of them fit under `limit`, otherwise none,
   * in one statement: the row lock of INSERT … ON CONFLICT DO UPDATE serialises concurrent
   * statements, so the counter never overshoots. Returns whether they were added.
   */
  async incrementMessagesBy(organisationId: string, month: string, count: number, limit: number | undefined): Promise<boolean> {
    if (limit !== undefined && count > limit) return false;
    const guard = limit === undefined ? '' : 'WHERE usage_counters.messages + EXCLUDED.messages <= ?';
    const result = await namedStatement(this.db, this.db.raw(
      `INSERT INTO usage_counters (organisation_id, month, messages) VALUES (?, ?, ?)
       ON CONFLICT (organisation_id, month) DO UPDATE SET messages = usage_counters.messages + EXCLUDED.messages ${guard}
       RETURNING messages`,
      limit === undefined ? [organisationId, month, count] : [organisationId, month, count, limit],
    ), limit === undefined ? 'count_messages' : 'count_messages_within_limit');
    return (result.rows as unknown[]).length > 0;
  }

  /** Messages counted so far in the month (0 when none). */
  async messages(organisationId: string, month: string): Promise<number> {
    const row = await this.db('usage_counters').where({ organisation_id: organisationId, month }).first('messages');
    return (row?.messages as number | undefined) ?? 0;
  }
}
