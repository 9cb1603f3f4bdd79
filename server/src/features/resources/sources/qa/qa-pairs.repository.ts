import type { Knex } from 'knex';
import type { QaPair, QaPairInput } from '@parley/shared';

/** A stored pair of a resource, with the resource it belongs to. */
export interface StoredQaPair extends QaPair {
  resourceId: string;
}

/** An indexed pair as chat matches it: with its resource's name, which its citation shows. */
export interface IndexedQaPair extends StoredQaPair {
  resourceName: string;
}

type Row = { id: string; resource_id: string; questions: string[] | string; answer: string };

const toPair = (row: Row): StoredQaPair => ({
  id: row.id, resourceId: row.resource_id, answer: row.answer,
  questions: typeof row.questions === 'string' ? JSON.parse(row.questions) as string[] : row.questions,
});

/** The bytes a pair takes of the plan's storage: its questions and answer as UTF-8. */
export const pairBytes = (pair: QaPairInput) => pair.questions.reduce((sum, question) => sum + Buffer.byteLength(question), Buffer.byteLength(pair.answer));

/** Saved answers of QA resources (`resource_qa_pairs`); every read filters by organisation. */
export class QaPairsRepository {
  constructor(private readonly db: Knex) {}

  /** A resource's pairs in order. */
  async list(organisationId: string, resourceId: string, db: Knex = this.db): Promise<StoredQaPair[]> {
    const rows: Row[] = await db('resource_qa_pairs').where({ organisation_id: organisationId, resource_id: resourceId })
      .orderBy([{ column: 'position' }, { column: 'id' }]).select('id', 'resource_id', 'questions', 'answer');
    return rows.map(toPair);
  }

  /** Appends pairs (with their ids) after the resource's last one. */
  async append(trx: Knex, organisationId: string, resourceId: string, pairs: readonly QaPair[]): Promise<void> {
    if (pairs.length === 0) return;
    const last = await trx('resource_qa_pairs').where({ resource_id: resourceId }).max('position as position').first();
    const start = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
    // Chunked: 1,000 pairs of 20 questions would otherwise be one very large statement.
    await trx.batchInsert('resource_qa_pairs', pairs.map((pair, index) => ({
      id: pair.id, organisation_id: organisationId, resource_id: resourceId, position: start + index,
      questions: JSON.stringify(pair.questions), answer: pair.answer,
    })), 200);
  }

  /** Replaces all of a resource's pairs. */
  async replace(trx: Knex, organisationId: string, resourceId: string, pairs: readonly QaPair[]): Promise<void> {
    await trx('resource_qa_pairs').where({ organisation_id: organisationId, resource_id: resourceId }).delete();
    await this.append(trx, organisationId, resourceId, pairs);
  }

  /** Deletes one pair; returns it, or undefined when the resource has no such pair. */
  async delete(trx: Knex, organisationId: string, resourceId: string, pairId: string): Promise<StoredQaPair | undefined> {
    const rows: Row[] = await trx('resource_qa_pairs').where({ organisation_id: organisationId, resource_id: resourceId, id: pairId })
      .delete().returning(['id', 'resource_id', 'questions', 'answer']);
    return rows[0] && toPair(rows[0]);
  }

  async count(organisationId: string, resourceId: string, db: Knex = this.db): Promise<number> {
    const row = await db('resource_qa_pairs').where({ organisation_id: organisationId, resource_id: resourceId }).count('* as count').first();
    return Number(row?.count ?? 0);
  }

  /**
   * The pairs of the given resources that are indexed (a chunk of the resource's current index
   * carries the pair's id), so a pair answers once its resource is indexed, like any knowledge,
   * and no longer once a re-index dropped it.
   */
  async indexed(organisationId: string, resourceIds: readonly string[]): Promise<IndexedQaPair[]> {
    if (resourceIds.length === 0) return [];
    const ids = [...resourceIds];
    // Only the chunks of resources that have pairs are looked at (not a large website's).
    const result = await this.db.raw(
      `WITH qa AS (SELECT DISTINCT resource_id FROM resource_qa_pairs WHERE organisation_id = ? AND resource_id = ANY(?::text[])),
       indexed AS (SELECT DISTINCT c.provenance->>'pairId' AS id FROM resource_chunks c JOIN qa ON qa.resource_id = c.resource_id
                   WHERE c.organisation_id = ? AND c.provenance->>'pairId' IS NOT NULL)
       SELECT p.id, p.resource_id, p.questions, p.answer, r.file_name FROM resource_qa_pairs p
       JOIN indexed ON indexed.id = p.id JOIN resources r ON r.id = p.resource_id
       WHERE p.organisation_id = ? AND p.resource_id = ANY(?::text[]) ORDER BY p.resource_id, p.position`,
      [organisationId, ids, organisationId, organisationId, ids],
    );
    return (result.rows as (Row & { file_name: string })[]).map((row) => ({ ...toPair(row), resourceName: row.file_name }));
  }
}
