import type { Knex } from 'knex';
import type { Passage } from '@parley/shared';
import type { ChunkProvenance } from './retrieve-chunks.js';

/** A passage as the API shows it: the chunk's text and its provenance, absent fields omitted. */
export function toPassage(content: string, provenance: ChunkProvenance): Passage {
  return {
    text: content,
    ...(provenance.title ? { section: provenance.title } : {}),
    ...(provenance.page !== undefined ? { page: provenance.page } : {}),
    ...(provenance.url ? { url: provenance.url } : {}),
    ...(provenance.startSeconds !== undefined ? { timestampSec: provenance.startSeconds } : {}),
  };
}

/** The indexed passages of one resource (its `resource_chunks`), read for owners. */
export class ResourcePassagesRepository {
  constructor(private readonly db: Knex) {}

  /**
   * `limit` passages from `offset` in document order: by page, then video time, then the order
   * they were cut in (a re-sync appends the chunks of changed sections after the kept ones).
   */
  async page(organisationId: string, resourceId: string, offset: number, limit: number): Promise<Passage[]> {
    const rows: { content: string; provenance: ChunkProvenance | string }[] = await this.db('resource_chunks')
      .where({ resource_id: resourceId, organisation_id: organisationId })
      .orderByRaw("(provenance->>'page')::int NULLS FIRST, (provenance->>'startSeconds')::float8 NULLS FIRST, ordinal")
      .offset(offset).limit(limit)
      .select('content', 'provenance');
    return rows.map((row) => toPassage(row.content, typeof row.provenance === 'string' ? JSON.parse(row.provenance) : row.provenance));
  }
}
