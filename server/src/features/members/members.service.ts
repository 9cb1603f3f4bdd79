import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Invitation, InvitationAccept, Member, OwnerCreate, Role } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { badRequest, conflict, notFound } from '../../errors/http-error.js';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './password.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { composeInvitationMail, composePasswordResetMail } from './member-mail.js';
import { MembersRepository, PASSWORD_RESET, toMember, type MemberRow } from './members.repository.js';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

/** How long a password reset link works. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;

/** How mail is sent: the notification mails' job and mailer. */
export type MemberMail = Pick<NotificationsService, 'mailEnabled' | 'sendMail'>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const normalEmail = (email: string) => email.trim().toLowerCase();

/** The members of organisations: first owner, invitations, sign-in checks, removal. */
export class MembersService {
  readonly repository: MembersRepository;

  constructor(private readonly db: Knex, private readonly publicUrl: string, private readonly mail?: MemberMail) {
    this.repository = new MembersRepository(db);
  }

  private async newMember(
    trx: Knex, organisationId: string, input: { email: string; name: string; password: string; role: Role }, now: number,
  ): Promise<MemberRow> {
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest(problem);
    const email = normalEmail(input.email);
    if (await trx('members').where({ email }).first('id')) throw conflict('a member already has this e-mail address');
    const row: MemberRow = {
      id: newId(now), organisation_id: organisationId, email, name: input.name.trim(), avatar_url: null, role: input.role,
      password_hash: await hashPassword(input.password), created_at: now,
    };
    await this.repository.insert(row, trx);
    return row;
  }

  /**
   * Creates the organisation's first member, its OWNER.
   * @throws 409 when the organisation has members already or the address is taken; 400 for a weak password.
   */
  async createOwner(organisationId: string, input: OwnerCreate, now = Date.now()): Promise<Member> {
    return toMember(await this.db.transaction(async (trx) => {
      // Serialises concurrent first runs of one organisation (the row lock lasts the transaction).
      await trx('organisations').where({ id: organisationId }).forUpdate().first('id');
      if (await this.repository.count(organisationId, undefined, trx) > 0) throw conflict('the organisation has an owner already; sign in with e-mail and password');
      return this.newMember(trx, organisationId, { ...input, role: 'OWNER' }, now);
    }));
  }

  /** Whether reset links and invitations are e-mailed (`SMTP_URL` set). */
  get mailEnabled(): boolean {
    return this.mail?.mailEnabled === true;
  }

  private async organisationName(organisationId: string, trx: Knex = this.db): Promise<string> {
    const row = await trx('organisations').where({ id: organisationId }).first<{ name: string } | undefined>('name');
    return row?.name ?? 'your organisation';
  }

  /**
   * Invites an address with a role; the link holds a 256-bit token that works once within 7 days.
   * When mail is on, the link is also e-mailed to the invitee (queued with the invitation, in one transaction).
   * @param inviter who invites, named in the mail.
   * @throws 409 when a member already has this address.
   */
  async invite(organisationId: string, input: { email: string; role: Role }, inviter = 'The owner', now = Date.now()): Promise<Invitation> {
    const email = normalEmail(input.email);
    if (await this.repository.findByEmail(email)) throw conflict('a member already has this e-mail address');
    await this.repository.pruneInvitations(now);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + INVITATION_TTL_MS;
    // In the fragment: browsers never send it, so the token stays out of request logs.
    const url = `${this.publicUrl}/console/invitation#${token}`;
    const mailed = await this.db.transaction(async (trx) => {
      await this.repository.insertInvitation({
        id: newId(now), organisation_id: organisationId, email, role: input.role, token_hash: hashToken(token),
        created_at: now, expires_at: expiresAt, accepted_at: null,
      }, trx);
      if (!this.mail?.mailEnabled) return false;
      const mail = composeInvitationMail({ inviter, organisationName: await this.organisationName(organisationId, trx), role: input.role, url, expiresAt });
      return this.mail.sendMail(organisationId, [email], mail, trx);
    });
    return { token, url, expiresAt, ...(mailed ? { mailed: true } : {}) };
  }

  /**
   * Mails a one-time password reset link (1 hour) to the member of an address; does nothing, and
   * says nothing, for an address without a member. A new link replaces the member's unused ones.
   * @throws 409 when mail is off (the operator resets passwords with the keys CLI).
   */
  async requestPasswordReset(email: string, now = Date.now()): Promise<void> {
    if (!this.mail?.mailEnabled) {
      throw conflict('password reset by e-mail needs mail, which is off on this service; ask the operator to set a new password with `npm run keys -- reset-password`');
    }
    const member = await this.repository.findByEmail(normalEmail(email));
    if (!member) return;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + PASSWORD_RESET_TTL_MS;
    const url = `${this.publicUrl}/console/password-reset#${token}`;
    await this.repository.pruneInvitations(now);
    await this.db.transaction(async (trx) => {
      await this.repository.deletePasswordResets(member.email, trx);
      await this.repository.insertInvitation({
        id: newId(now), organisation_id: member.organisation_id, email: member.email, role: PASSWORD_RESET, token_hash: hashToken(token),
        created_at: now, expires_at: expiresAt, accepted_at: null,
      }, trx);
      const mail = composePasswordResetMail({ organisationName: await this.organisationName(member.organisation_id, trx), url, expiresAt });
      await this.mail!.sendMail(member.organisation_id, [member.email], mail, trx);
    });
  }

  /**
   * Sets a new password with a reset link's token; every session of the member ends.
   * @throws 404 when the link is unknown, used or expired (or its member was removed); 400 for a weak password.
   */
  async resetPasswordWithToken(token: string, password: string, now = Date.now()): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw badRequest(problem);
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (trx) => {
      const reset = await this.repository.claimPasswordReset(trx, hashToken(token), now);
      const member = reset && await trx<MemberRow>('members').where({ organisation_id: reset.organisation_id, email: reset.email }).first();
      if (!member) throw notFound('password reset link (unknown, used or expired)');
      await trx('members').where({ id: member.id }).update({ password_hash: passwordHash });
      await trx('console_sessions').where({ member_id: member.id }).whereNull('ended_at').update({ ended_at: now });
    });
  }

  /**
   * Accepts an invitation: the invitee becomes a member with the invited address and role.
   * @throws 404 when the invitation is unknown, used or expired; 409 when the address became a member; 400 for a weak password.
   */
  async accept(token: string, input: InvitationAccept, now = Date.now()): Promise<Member> {
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest(problem);
    return toMember(await this.db.transaction(async (trx) => {
      const invitation = await this.repository.claimInvitation(trx, hashToken(token), now);
      if (!invitation) throw notFound('invitation (unknown, used or expired)');
      return this.newMember(trx, invitation.organisation_id, { email: invitation.email, role: invitation.role, ...input }, now);
    }));
  }

  async list(organisationId: string): Promise<Member[]> {
    return (await this.repository.list(organisationId)).map(toMember);
  }

  /** Whether the organisation has no members yet (first run). */
  async needsOwner(organisationId: string): Promise<boolean> {
    return await this.repository.count(organisationId) === 0;
  }

  /**
   * Removes a member; its console sessions end with it, on every instance.
   * @throws 404 for another organisation's member; 409 for the last OWNER.
   */
  async remove(organisationId: string, id: string): Promise<Member> {
    return toMember(await this.db.transaction(async (trx) => {
      await trx('organisations').where({ id: organisationId }).forUpdate().first('id');
      const member = await trx<MemberRow>('members').where({ organisation_id: organisationId, id }).first();
      if (!member) throw notFound('member');
      if (member.role === 'OWNER' && await this.repository.count(organisationId, 'OWNER', trx) <= 1) {
        throw conflict('the organisation\'s last OWNER cannot be removed');
      }
      await this.repository.delete(organisationId, id, trx);
      return member;
    }));
  }

  /** Changes a member's own name or avatar (its `users` row keeps the name too). */
  async updateProfile(organisationId: string, id: string, update: { name?: string; avatarUrl?: string | null }): Promise<Member> {
    const changes = {
      ...(update.name !== undefined ? { name: update.name.trim() } : {}),
      ...(update.avatarUrl !== undefined ? { avatar_url: update.avatarUrl } : {}),
    };
    return toMember(await this.db.transaction(async (trx) => {
      if (Object.keys(changes).length > 0) await trx('members').where({ organisation_id: organisationId, id }).update(changes);
      if (changes.name !== undefined) await trx('users').where({ id }).update({ name: changes.name });
      const member = await trx<MemberRow>('members').where({ organisation_id: organisationId, id }).first();
      if (!member) throw notFound('member');
      return member;
    }));
  }

  /**
   * The member of an e-mail address and password, or undefined. An unknown address costs a hash
   * too, so the answer's time does not tell which addresses have accounts.
   */
  async verify(email: string, password: string): Promise<MemberRow | undefined> {
    const member = await this.repository.findByEmail(normalEmail(email));
    const matches = await verifyPassword(password, member?.password_hash ?? await decoyHash());
    return member && matches ? member : undefined;
  }

  /**
   * Sets a new random password for the member of an address (the keys CLI, when mail is off) and
   * ends its sessions; returns the password to hand over.
   */
  async resetPassword(email: string): Promise<{ memberId: string; email: string; password: string } | undefined> {
    const member = await this.repository.findByEmail(normalEmail(email));
    if (!member) return undefined;
    const password = randomBytes(15).toString('base64url');
    await this.repository.setPassword(member.id, await hashPassword(password));
    await this.db('console_sessions').where({ member_id: member.id }).whereNull('ended_at').update({ ended_at: Date.now() });
    return { memberId: member.id, email: member.email, password };
  }
}
