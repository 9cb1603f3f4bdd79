import type { Knex } from 'knex';
import type { Session } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { unauthorized } from '../../errors/http-error.js';
import { resolveSessionSecret } from '../embed/embed-session.js';
import { toMember, type MemberRow } from '../members/members.repository.js';
import type { MembersService } from '../members/members.service.js';
import type { AuthContext, OrganisationsService } from '../organisations/organisations.service.js';
import { csrfTokenOf, isCsrfTokenOf, signSessionId, verifySessionCookie } from './session-token.js';
import { SessionsRepository, type LiveSessionRow } from './sessions.repository.js';

/** A console session resolved from its cookie. */
export interface ConsoleSession {
  id: string;
  auth: AuthContext;
  expiresAt: number;
  organisationName: string;
  /** The member's row, for a session signed in with e-mail and password. */
  member?: LiveSessionRow['member'];
}

/**
 * Owner console sessions: an API key, or a member's e-mail and password, is exchanged once for a
 * signed session cookie; the session lives in the database so that sign-out, revoking its key and
 * removing its member end it at once, on every instance.
 */
export class SessionsService {
  private readonly repository: SessionsRepository;
  private secret?: Promise<Buffer>;

  constructor(
    private readonly db: Knex,
    private readonly organisations: OrganisationsService,
    private readonly members: MembersService,
    private readonly options: { ttlMs: number; maxPerKey: number; features: Session['features'] },
  ) {
    this.repository = new SessionsRepository(db);
  }

  private getSecret(): Promise<Buffer> {
    this.secret ??= resolveSessionSecret(this.db, undefined, 'console_session_secret');
    // A failed lookup (database briefly down) is retried by the next request.
    this.secret.catch(() => { this.secret = undefined; });
    return this.secret;
  }

  /**
   * Starts a session for an API key; returns the cookie value and what the page may know.
   * @throws 401 when the key is unknown or revoked.
   */
  async signIn(apiKey: string, now = Date.now()): Promise<{ cookie: string; session: Session }> {
    const auth = await this.organisations.authenticate(apiKey);
    if (!auth) throw unauthorized('the API key is invalid or revoked');
    return this.start({ key_id: auth.keyId }, auth.organisationId, now);
  }

  /**
   * Starts a session for a member by e-mail and password.
   * @throws 401 when the address is unknown or the password wrong (one message for both).
   */
  async signInMember(email: string, password: string, now = Date.now()): Promise<{ cookie: string; session: Session }> {
    const member = await this.members.verify(email, password);
    if (!member) throw unauthorized('the e-mail address or password is wrong');
    return this.startForMember(member, now);
  }

  /** Starts a session for a member already proven (a first run's new owner). */
  startForMember(member: Pick<MemberRow, 'id' | 'organisation_id'>, now = Date.now()): Promise<{ cookie: string; session: Session }> {
    return this.start({ member_id: member.id }, member.organisation_id, now);
  }

  private async start(owner: { key_id: string } | { member_id: string }, organisationId: string, now: number): Promise<{ cookie: string; session: Session }> {
    const id = newId(now);
    const expiresAt = now + this.options.ttlMs;
    await this.repository.insert({ id, key_id: null, member_id: null, ...owner, organisation_id: organisationId, created_at: now, expires_at: expiresAt, ended_at: null });
    // Finished sessions are cleared on sign-in rather than by a timer (sign-ins are rare and rate
    // limited). A key or member keeps its newest sessions only: a script or a forgotten browser
    // that signs in again and again cannot pile up live rows, and a person's few devices stay signed in.
    await this.repository.prune(now);
    await this.repository.keepNewest(owner, this.options.maxPerKey);
    const session = await this.authenticate(signSessionId(await this.getSecret(), id), now);
    if (!session) throw unauthorized('the session ended as it started; sign in again');
    return { cookie: signSessionId(await this.getSecret(), id), session: await this.describe(session) };
  }

  /** The live session of a cookie value, or undefined (forged, expired, ended, its key revoked or its member removed). */
  async authenticate(cookie: string, now = Date.now()): Promise<ConsoleSession | undefined> {
    const id = verifySessionCookie(await this.getSecret(), cookie);
    const row = id && await this.repository.findLive(id, now);
    return row ? this.toSession(row) : undefined;
  }

  /** What the page may know of its session. */
  async describe(session: ConsoleSession): Promise<Session> {
    const { member } = session;
    return {
      csrfToken: csrfTokenOf(await this.getSecret(), session.id), expiresAt: session.expiresAt,
      organisation: session.auth.organisationId, organisationName: session.organisationName, features: this.options.features,
      ...(member ? { member: toMember({ ...member, organisation_id: session.auth.organisationId, password_hash: '' }) } : {}),
      needsOwner: member ? false : await this.members.needsOwner(session.auth.organisationId),
    };
  }

  async isValidCsrfToken(session: ConsoleSession, token: string): Promise<boolean> {
    return isCsrfTokenOf(await this.getSecret(), session.id, token);
  }

  async signOut(session: ConsoleSession, now = Date.now()): Promise<void> {
    await this.repository.end(session.id, now);
  }

  private toSession(row: LiveSessionRow): ConsoleSession {
    const { member } = row;
    const plan = this.organisations.planOf(row);
    const auth: AuthContext = member
      ? {
        organisationId: row.organisation_id, userId: member.id, keyId: `member:${member.id}`, plan,
        member: { id: member.id, name: member.name, email: member.email, role: member.role },
      }
      : { organisationId: row.organisation_id, userId: row.user_id!, keyId: row.key_id!, plan };
    return { id: row.id, expiresAt: row.expires_at, organisationName: row.organisation_name, auth, ...(member ? { member } : {}) };
  }
}
