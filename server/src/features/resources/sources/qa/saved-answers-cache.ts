import type { Knex } from 'knex';
import { RecentMap } from '../../../../providers/llm/local/recent-map.js';
import type { IndexedQaPair, QaPairsRepository } from './qa-pairs.repository.js';

/** Pairs kept across all cached resources (an entry weighs its pairs, plus one). */
const MAX_CACHED_PAIRS = 50_000;
/** Resource types remembered: a resource's type never changes, and its id is never reused. */
const MAX_KNOWN_TYPES = 100_000;

interface VersionRow { id: string; type: string; chunk_version: string; qa_version: string; file_name: string }

/**
 * The indexed saved answers of a chatbot's resources, read on every chat, cached per QA resource
 * under its versions: `chunk_version` (its index changed) and `qa_version` (a pair was written),
 * both bumped by database triggers, and its name (which citations show). Each question reads the
 * versions of the chatbot's QA resources by primary key, so an edit takes effect at once on every
 * instance; the pairs themselves are read only when a version moved. A chatbot whose resources
 * are known to hold no QA resource reads nothing at all.
 */
export class SavedAnswersCache {
  private readonly types = new RecentMap<string, string>(MAX_KNOWN_TYPES);
  private readonly pairs = new RecentMap<string, IndexedQaPair[]>(MAX_CACHED_PAIRS, (pairs) => pairs.length + 1);

  constructor(private readonly db: Knex, private readonly repository: Pick<QaPairsRepository, 'indexed'>) {}

  /** The pairs of the given resources that are indexed, in the order of `QaPairsRepository.indexed`. */
  async indexed(organisationId: string, resourceIds: readonly string[]): Promise<IndexedQaPair[]> {
    const asked = resourceIds.filter((id) => this.types.get(id) === undefined || this.types.get(id) === 'QA');
    if (asked.length === 0) return [];
    const rows: VersionRow[] = await this.db('resources').where({ organisation_id: organisationId }).whereIn('id', asked)
      .select('id', 'type', this.db.raw('chunk_version::text AS chunk_version'), this.db.raw('qa_version::text AS qa_version'), 'file_name');
    for (const row of rows) this.types.set(row.id, row.type);
    const qa = rows.filter((row) => row.type === 'QA').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (qa.length === 0) return [];
    const keyOf = (row: VersionRow) => `${organisationId}\u0000${row.id}\u0000${row.chunk_version}\u0000${row.qa_version}\u0000${row.file_name}`;
    const found = new Map(qa.flatMap((row) => {
      const pairs = this.pairs.get(keyOf(row));
      return pairs ? [[row.id, pairs] as const] : [];
    }));
    const missing = qa.filter((row) => !found.has(row.id));
    if (missing.length > 0) {
      // Read after the versions: a pair written meanwhile is read under the older key, which no later question asks for.
      const read = await this.repository.indexed(organisationId, missing.map((row) => row.id));
      for (const row of missing) {
        const pairs = read.filter((pair) => pair.resourceId === row.id);
        found.set(row.id, pairs);
        this.pairs.set(keyOf(row), pairs);
      }
    }
    return qa.flatMap((row) => found.get(row.id) ?? []);
  }
}
