import type { Knex } from 'knex';
import type { ApiKeyRow, OrganisationRow } from '../organisations/organisations.repository.js';

export interface SessionRow {
  id: string; key_id: string; organisation_id: string; created_at: number; expires_at: number; ended_at: number | null;
}

/** A live session joined with its (active) key and organisation. */
export type LiveSessionRow = SessionRow & Pick<ApiKeyRow, 'user_id'> & OrganisationRow & { organisation_name: string };

/** Console sessions; a session is live while unended, unexpired and its key unrevoked. */
export class SessionsRepository {
  constructor(private readonly db: Knex) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db('console_sessions').insert(row);
  }

  /** The session if it is live at `now`, with its key's user and its organisation's plan columns. */
  async findLive(id: string, now: number): Promise<LiveSessionRow | undefined> {
    const row = await this.db('console_sessions as s')
      .join('api_keys as k', 'k.id', 's.key_id')
      .join('organisations as o', 'o.id', 's.organisation_id')
      .where('s.id', id).whereNull('s.ended_at').where('s.expires_at', '>', now).whereNull('k.revoked_at')
      .first('o.*', 'o.name as organisation_name', 's.id', 's.key_id', 's.organisation_id', 's.created_at', 's.expires_at', 's.ended_at', 'k.user_id');
    return row ? { ...row, created_at: Number(row.created_at), expires_at: Number(row.expires_at) } : undefined;
  }

  async end(id: string, now: number): Promise<void> {
    await this.db('console_sessions').where({ id }).whereNull('ended_at').update({ ended_at: now });
  }

  /** Removes sessions that can no longer be used (ended or expired before `before`). */
  async prune(before: number): Promise<number> {
    return this.db('console_sessions').where('expires_at', '<', before).orWhere('ended_at', '<', before).delete();
  }

  /** Removes all but the `count` newest sessions of a key; returns how many were removed. */
  async keepNewest(keyId: string, count: number): Promise<number> {
    const newest = this.db('console_sessions').select('id').where({ key_id: keyId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(count);
    return this.db('console_sessions').where({ key_id: keyId }).whereNotIn('id', newest).delete();
  }
}
