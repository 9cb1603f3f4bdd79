import type { Knex } from 'knex';
import { CoalescedReads } from '../../db/coalesced-reads.js';
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
  organisationId: string;
  resourceIds: readonly string[];
  question: string;
  synonyms: string;
}

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) as T : value);

/**
 * Reads the search scope of questions: one round trip for the questions over the same resources
 * that arrive together (db/coalesced-reads.ts), each getting its own lexemes. The versions are
 * read once for such a batch: every question in it searches the resources as they were at that
 * moment, as it would have alone.
 */
export class ScopeReads {
  private readonly reads: CoalescedReads<Asked, ScopeRead>;

  constructor(private readonly db: Knex) {
    this.reads = new CoalescedReads((asked) => this.readAll(asked));
  }

  read(organisationId: string, resourceIds: readonly string[], question: string, synonyms: string): Promise<ScopeRead> {
    return this.reads.read(`${organisationId}\u0000${resourceIds.join('\u0000')}`, { organisationId, resourceIds, question, synonyms });
  }

  /** The scope of questions over the same resources of one organisation. */
  private async readAll(asked: Asked[]): Promise<ScopeRead[]> {
    const { organisationId, resourceIds } = asked[0]!;
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
