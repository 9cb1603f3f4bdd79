import type { Knex } from 'knex';
import type { MemberRow } from '../members/members.repository.js';
import type { OrganisationRow } from '../organisations/organisations.repository.js';

export interface SessionRow {
  id: string;
  /** The key signed in with, or null for a member's session. */
  key_id: string | null;
  /** The member signed in, or null for a key's session. */
  member_id: string | null;
  organisation_id: string; created_at: number; expires_at: number; ended_at: number | null;
}

/** A live session joined with its (active) key or its member, and its organisation. */
export type LiveSessionRow = SessionRow & { user_id: string | null } & OrganisationRow & {
  organisation_name: string;
  member: Pick<MemberRow, 'id' | 'email' | 'name' | 'role' | 'avatar_url' | 'created_at'> | undefined;
};

/**
 * Console sessions; a session is live while unended, unexpired and its key unrevoked or its member
 * not removed (removing a member deletes its sessions).
 */
export class SessionsRepository {
  constructor(private readonly db: Knex) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db('console_sessions').insert(row);
  }

  /** The session if it is live at `now`, with its key's user and its organisation's plan columns. */
  async findLive(id: string, now: number): Promise<LiveSessionRow | undefined> {
    const row = await this.db('console_sessions as s')
      .leftJoin('api_keys as k', 'k.id', 's.key_id')
      .leftJoin('members as m', 'm.id', 's.member_id')
      .join('organisations as o', 'o.id', 's.organisation_id')
      .where('s.id', id).whereNull('s.ended_at').where('s.expires_at', '>', now)
      .where((live) => live.where((byKey) => byKey.whereNotNull('k.id').whereNull('k.revoked_at')).orWhereNotNull('m.id'))
      .first(
        'o.*', 'o.name as organisation_name', 's.id', 's.key_id', 's.member_id', 's.organisation_id', 's.created_at', 's.expires_at', 's.ended_at',
        'k.user_id', 'm.email as member_email', 'm.name as member_name', 'm.role as member_role', 'm.avatar_url as member_avatar_url',
        'm.created_at as member_created_at',
      );
    if (!row) return undefined;
    const member = row.member_id ? {
      id: row.member_id, email: row.member_email, name: row.member_name, role: row.member_role, avatar_url: row.member_avatar_url,
      created_at: Number(row.member_created_at),
    } : undefined;
    return { ...row, member, created_at: Number(row.created_at), expires_at: Number(row.expires_at) };
  }

  async end(id: string, now: number): Promise<void> {
    await this.db('console_sessions').where({ id }).whereNull('ended_at').update({ ended_at: now });
  }

  /** Removes sessions that can no longer be used (ended or expired before `before`). */
  async prune(before: number): Promise<number> {
    return this.db('console_sessions').where('expires_at', '<', before).orWhere('ended_at', '<', before).delete();
  }

  /** Removes all but the `count` newest sessions of a key or a member; returns how many were removed. */
  async keepNewest(owner: { key_id: string } | { member_id: string }, count: number): Promise<number> {
    const newest = this.db('console_sessions').select('id').where(owner).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(count);
    return this.db('console_sessions').where(owner).whereNotIn('id', newest).delete();
  }
}
