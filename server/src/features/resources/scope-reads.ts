import type { Knex } from 'knex';
import { namedStatement } from '../../db/named-statements.js';

/** What one question's search reads from the database: its resources' versions and the lexemes of its words and synonyms. */
export interface ScopeRead {
  /** Each resource found: id, chunk version, file name. */
  versions: [string, string, string][];
  /** The question's lexemes with their first position. */
  terms: [string, number][];
  /** The lexemes of the synonyms searched beside it. */
  synonyms: string[];
}

/** A list of at most this many resources is read by a named statement (db/named-statements.ts). */
const NAMED_SCOPE_MAX_RESOURCES = 50;

interface Asked {
  question: string;
  synonyms: string;
  resolve(read: ScopeRead): void;
  reject(err: unknown): void;
}

interface Batch {
  organisationId: string;
  resourceIds: readonly string[];
  waiting: Asked[];
}

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) as T : value);

/**
 * Reads the search scope of questions, one round trip for the questions over the same resources
 * that arrive together. A question's own read starts at once when none for its resources is in
 * flight; questions arriving meanwhile share the next read (as the message counter batches its
 * counts). A burst of 1,000 questions at one chatbot made 1,000 reads, each a query written to
 * PostgreSQL and parsed back (issue 12: the pg client's writes alone were a seventh of the
 * service's busy time before the first answers). The versions are read once for a batch: every
 * question in it searches the resources as they were at that moment, as each would have alone.
 */
export class ScopeReads {
  /** Batches by organisation and resource list; present while a read for that key is in flight. */
  private readonly batches = new Map<string, Batch>();

  constructor(private readonly db: Knex) {}

  read(organisationId: string, resourceIds: readonly string[], question: string, synonyms: string): Promise<ScopeRead> {
    const key = `${organisationId}\u0000${resourceIds.join('\u0000')}`;
    return new Promise<ScopeRead>((resolve, reject) => {
      const asked = { question, synonyms, resolve, reject };
      const batch = this.batches.get(key);
      if (batch) {
        batch.waiting.push(asked);
        return;
      }
      const started: Batch = { organisationId, resourceIds, waiting: [asked] };
      this.batches.set(key, started);
      void this.flush(key, started);
    });
  }

  /** Reads for the questions waiting, again for those that arrived during the read, until none waits. */
  private async flush(key: string, batch: Batch): Promise<void> {
    while (batch.waiting.length > 0) {
      const asked = batch.waiting.splice(0);
      try {
        const reads = await this.readAll(batch.organisationId, batch.resourceIds, asked);
        asked.forEach((one, i) => one.resolve(reads[i]!));
      } catch (err) {
        for (const one of asked) one.reject(err);
      }
    }
    this.batches.delete(key);
  }

  private async readAll(organisationId: string, resourceIds: readonly string[], asked: readonly Asked[]): Promise<ScopeRead[]> {
    const query = this.db.raw(
      // Primary-key probes: PGlite reads 1,000 resources' versions in half the time of a semi-join against a materialised CTE.
      `SELECT
         (SELECT coalesce(json_agg(json_build_array(id, chunk_version::text, file_name)), '[]') FROM resources
          WHERE id = ANY(?::text[]) AND organisation_id = ?) AS versions,
         (SELECT coalesce(json_agg(json_build_array(
            (SELECT coalesce(json_agg(json_build_array(lexeme, positions[1])), '[]') FROM unnest(to_tsvector('english', q.question))),
            (SELECT coalesce(json_agg(lexeme), '[]') FROM unnest(to_tsvector('english', q.synonyms)))
          ) ORDER BY q.i), '[]') FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS q(question, synonyms, i)) AS asked`,
      [[...resourceIds], organisationId, asked.map((one) => one.question), asked.map((one) => one.synonyms)],
    );
    // A named statement for the usual chatbot only: PostgreSQL's plan for any list reads 1,000
    // resources' versions 0.6 ms slower than a plan made for that list.
    const result = await (resourceIds.length <= NAMED_SCOPE_MAX_RESOURCES ? namedStatement(this.db, query, 'search_scope') : query);
    const row = (result.rows as { versions: ScopeRead['versions'] | string; asked: [ScopeRead['terms'], string[]][] | string }[])[0]!;
    const versions = parsed(row.versions);
    return parsed(row.asked).map(([terms, synonyms]) => ({ versions, terms, synonyms }));
  }
}
