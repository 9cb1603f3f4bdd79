import type { Knex } from 'knex';
import type { Member, Role } from '@parley/shared';

export interface MemberRow {
  id: string; organisation_id: string; email: string; name: string; avatar_url: string | null;
  role: Role; password_hash: string; created_at: number;
}

export interface InvitationRow {
  id: string; organisation_id: string; email: string; role: Role; token_hash: string;
  created_at: number; expires_at: number; accepted_at: number | null;
}

/**
 * The `role` of a `member_invitations` row that is a password reset link instead of an invitation:
 * the table already holds what a reset link needs (address, organisation, hashed token, expiry, used).
 */
export const PASSWORD_RESET = 'RESET';

export type PasswordResetRow = Omit<InvitationRow, 'role'> & { role: typeof PASSWORD_RESET };

export function toMember(row: MemberRow): Member {
  return {
    id: row.id, email: row.email, name: row.name, role: row.role, createdAt: Number(row.created_at),
    ...(row.avatar_url ? { avatarUrl: row.avatar_url } : {}),
  };
}

/** Members (each also a `users` row), their invitations and password reset links. */
export class MembersRepository {
  constructor(private readonly db: Knex) {}

  /** Inserts the member and its `users` row in one transaction. */
  async insert(row: MemberRow, trx: Knex = this.db): Promise<void> {
    await trx.transaction(async (t) => {
      await t('users').insert({ id: row.id, organisation_id: row.organisation_id, name: row.name, created_at: row.created_at });
      await t('members').insert(row);
    });
  }

  findByEmail(email: string): Promise<MemberRow | undefined> {
    return this.db('members').where({ email }).first();
  }

  find(organisationId: string, id: string): Promise<MemberRow | undefined> {
    return this.db('members').where({ organisation_id: organisationId, id }).first();
  }

  list(organisationId: string): Promise<MemberRow[]> {
    return this.db('members').where({ organisation_id: organisationId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
  }

  async count(organisationId: string, role?: Role, trx: Knex = this.db): Promise<number> {
    const query = trx('members').where({ organisation_id: organisationId });
    if (role) query.where({ role });
    const row = await query.count<{ count: number }[]>({ count: '*' }).first();
    return Number(row?.count ?? 0);
  }

  /** Whether any member exists on the install (the console then offers e-mail sign-in first). */
  async any(): Promise<boolean> {
    return (await this.db('members').first('id')) !== undefined;
  }

  /** Deletes a member; its console sessions go with it (ON DELETE CASCADE). */
  async delete(organisationId: string, id: string, trx: Knex = this.db): Promise<boolean> {
    return (await trx('members').where({ organisation_id: organisationId, id }).delete()) > 0;
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db('members').where({ id }).update({ password_hash: passwordHash });
  }

  async insertInvitation(row: InvitationRow | PasswordResetRow, trx: Knex = this.db): Promise<void> {
    await trx('member_invitations').insert(row);
  }

  /** Removes a member's password reset links not yet used (a new one replaces them). */
  async deletePasswordResets(email: string, trx: Knex = this.db): Promise<void> {
    await trx('member_invitations').where({ email, role: PASSWORD_RESET }).delete();
  }

  /** Marks an unexpired, unused password reset link used and returns it (one conditional update, like invitations). */
  async claimPasswordReset(trx: Knex, tokenHash: string, now: number): Promise<PasswordResetRow | undefined> {
    const rows: PasswordResetRow[] = await trx('member_invitations').where({ token_hash: tokenHash, role: PASSWORD_RESET }).whereNull('accepted_at')
      .where('expires_at', '>', now).update({ accepted_at: now }, ['*']);
    return rows[0];
  }

  /**
   * Marks an unexpired, unused invitation used and returns it; undefined when there is none.
   * One conditional update, so of two accepts at once (on any instances) only one wins.
   */
  async claimInvitation(trx: Knex, tokenHash: string, now: number): Promise<InvitationRow | undefined> {
    const rows: InvitationRow[] = await trx('member_invitations').where({ token_hash: tokenHash }).whereNot({ role: PASSWORD_RESET }).whereNull('accepted_at')
      .where('expires_at', '>', now).update({ accepted_at: now }, ['*']);
    return rows[0];
  }

  /** Removes invitations that can no longer be accepted. */
  async pruneInvitations(now: number): Promise<void> {
    await this.db('member_invitations').where('expires_at', '<', now).orWhereNotNull('accepted_at').delete();
  }
}
