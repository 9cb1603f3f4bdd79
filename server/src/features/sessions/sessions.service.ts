import type { Knex } from 'knex';
import type { Session } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { unauthorized } from '../../errors/http-error.js';
import { resolveSessionSecret } from '../embed/embed-session.js';
import type { AuthContext, OrganisationsService } from '../organisations/organisations.service.js';
import { csrfTokenOf, isCsrfTokenOf, signSessionId, verifySessionCookie } from './session-token.js';
import { SessionsRepository, type LiveSessionRow } from './sessions.repository.js';

/** A console session resolved from its cookie. */
export interface ConsoleSession {
  id: string;
  auth: AuthContext;
  expiresAt: number;
  organisationName: string;
}

/**
 * Owner console sessions: an API key is exchanged once for a signed session cookie; the session
 * lives in the database so that sign-out and revoking its key end it at once, on every instance.
 */
export class SessionsService {
  private readonly repository: SessionsRepository;
  private secret?: Promise<Buffer>;

  constructor(
    private readonly db: Knex,
    private readonly organisations: OrganisationsService,
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
    const id = newId(now);
    const expiresAt = now + this.options.ttlMs;
    await this.repository.insert({ id, key_id: auth.keyId, organisation_id: auth.organisationId, created_at: now, expires_at: expiresAt, ended_at: null });
    // Finished sessions are cleared on sign-in rather than by a timer (sign-ins are rare and rate
    // limited). A key keeps its newest sessions only: a script or a forgotten browser that signs in
    // again and again cannot pile up live rows, and a person's few devices stay signed in.
    await this.repository.prune(now);
    await this.repository.keepNewest(auth.keyId, this.options.maxPerKey);
    const organisation = await this.organisations.findOrganisation(auth.organisationId);
    const secret = await this.getSecret();
    return {
      cookie: signSessionId(secret, id),
      session: {
        csrfToken: csrfTokenOf(secret, id), expiresAt, organisation: auth.organisationId, organisationName: organisation?.name ?? '', features: this.options.features,
      },
    };
  }

  /** The live session of a cookie value, or undefined (forged, expired, ended, or its key revoked). */
  async authenticate(cookie: string, now = Date.now()): Promise<ConsoleSession | undefined> {
    const id = verifySessionCookie(await this.getSecret(), cookie);
    const row = id && await this.repository.findLive(id, now);
    return row ? this.toSession(row) : undefined;
  }

  /** What the page may know of its session. */
  async describe(session: ConsoleSession): Promise<Session> {
    return {
      csrfToken: csrfTokenOf(await this.getSecret(), session.id), expiresAt: session.expiresAt,
      organisation: session.auth.organisationId, organisationName: session.organisationName, features: this.options.features,
    };
  }

  async isValidCsrfToken(session: ConsoleSession, token: string): Promise<boolean> {
    return isCsrfTokenOf(await this.getSecret(), session.id, token);
  }

  async signOut(session: ConsoleSession, now = Date.now()): Promise<void> {
    await this.repository.end(session.id, now);
  }

  private toSession(row: LiveSessionRow): ConsoleSession {
    return {
      id: row.id, expiresAt: row.expires_at, organisationName: row.organisation_name,
      auth: { organisationId: row.organisation_id, userId: row.user_id, keyId: row.key_id, plan: this.organisations.planOf(row) },
    };
  }
}
