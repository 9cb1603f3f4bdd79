import type { NextFunction, Request, RequestHandler } from 'express';
import { CSRF_HEADER, SESSION_COOKIE } from '@parley/shared';
import { forbidden, unauthorized } from '../../errors/http-error.js';
import { apiKeyAuth } from '../../http/api-key-auth.js';
import type { OrganisationsService, SignedInMember } from '../organisations/organisations.service.js';
import { readCookie } from './session-token.js';
import type { ConsoleSession, SessionsService } from './sessions.service.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when the caller came with a console session cookie instead of `x-api-key`. */
    consoleSession?: ConsoleSession;
    /** The member signed in, for a session made with e-mail and password (see `req.auth.member`). */
    member?: SignedInMember;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request comes from the service's own pages: no foreign `Origin`, not `Sec-Fetch-Site: cross-site`. */
export function isSameOrigin(req: Request, publicUrl: string): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || host === new URL(publicUrl).host;
  } catch {
    return false;
  }
}

/**
 * Authenticates a /v1 call by `x-api-key` or, without one, by the console session cookie. With the
 * cookie, a state-changing call must come from the same origin and carry the session's CSRF token
 * in `x-csrf-token` (a cross-site page can neither read that token nor set the header); else 403.
 */
export function sessionOrApiKeyAuth(
  organisations: OrganisationsService, sessions: SessionsService, publicUrl: string, onActive?: (organisationId: string) => void,
): RequestHandler {
  const byApiKey = apiKeyAuth(organisations);
  const bySession = async (req: Request, cookie: string, next: NextFunction) => {
    const session = await sessions.authenticate(cookie);
    if (!session) throw unauthorized('the console session has ended or expired; sign in again');
    if (!SAFE_METHODS.has(req.method)) {
      if (!isSameOrigin(req, publicUrl)) throw forbidden('cross-site requests with a console session are refused');
      const token = req.headers[CSRF_HEADER];
      if (typeof token !== 'string' || !await sessions.isValidCsrfToken(session, token)) {
        throw forbidden(`the ${CSRF_HEADER} header must carry the session's CSRF token`);
      }
    }
    req.auth = session.auth;
    req.consoleSession = session;
    // Someone has the console open: the team counts as available for a visitor asking for a person.
    onActive?.(session.auth.organisationId);
    if (session.auth.member) req.member = session.auth.member;
    next();
  };
  return (req, res, next) => {
    const cookie = req.headers['x-api-key'] === undefined ? readCookie(req.headers.cookie, SESSION_COOKIE) : undefined;
    return cookie === undefined ? byApiKey(req, res, next) : bySession(req, cookie, next);
  };
}

/** The console session of the request. @throws 401 when the caller used an API key instead. */
export function consoleSessionOf(req: Request): ConsoleSession {
  if (!req.consoleSession) throw unauthorized('this call needs a console session (sign in with POST /v1/session)');
  return req.consoleSession;
}
