import { Router, type CookieOptions, type RequestHandler, type Response } from 'express';
import { SESSION_COOKIE, sessionContract, type Session } from '@parley/shared';
import type { MembersService } from '../members/members.service.js';
import { forbidden } from '../../errors/http-error.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import { consoleSessionOf, isSameOrigin } from './session-auth.js';
import type { SessionsService } from './sessions.service.js';

function cookieOptions(publicUrl: string): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: publicUrl.startsWith('https:'), path: '/' };
}

/** Sets a new session's cookie on the answer. */
export function setSessionCookie(res: Response, publicUrl: string, started: { cookie: string; session: Session }): Session {
  res.cookie(SESSION_COOKIE, started.cookie, { ...cookieOptions(publicUrl), expires: new Date(started.session.expiresAt) });
  res.setHeader('Cache-Control', 'no-store');
  return started.session;
}

/**
 * `POST /v1/session` (sign-in): public, mounted before the /v1 authentication. The rate limits
 * (sign-in-rate-limits.ts) count every attempt before the body is validated or a key looked up.
 */
export function signInRoutes(sessions: SessionsService, members: MembersService, publicUrl: string, rateLimits: RequestHandler[]): Router {
  const router = Router();
  router.post(toExpressPath(sessionContract.create.path), ...rateLimits);
  mountRoute(router, sessionContract.create, async ({ req, body, res }) => {
    // No signing a browser into someone else's organisation from another site (login CSRF).
    if (!isSameOrigin(req, publicUrl)) throw forbidden('cross-site sign-in is refused');
    const started = 'apiKey' in body ? await sessions.signIn(body.apiKey) : await sessions.signInMember(body.email, body.password);
    return setSessionCookie(res, publicUrl, started);
  });
  mountRoute(router, sessionContract.methods, async ({ res }) => {
    res.setHeader('Cache-Control', 'no-store');
    return { password: await members.repository.any(), mail: members.mailEnabled };
  });
  return router;
}

/** `GET /v1/session` and `DELETE /v1/session` (sign-out), behind the /v1 authentication. */
export function sessionRoutes(sessions: SessionsService, publicUrl: string): RouteTable {
  const router = routeTable();
  mountRoute(router, sessionContract.get, ({ req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    return sessions.describe(consoleSessionOf(req));
  });
  mountRoute(router, sessionContract.remove, async ({ req, res }) => {
    await sessions.signOut(consoleSessionOf(req));
    res.clearCookie(SESSION_COOKIE, cookieOptions(publicUrl));
  });
  return router;
}
