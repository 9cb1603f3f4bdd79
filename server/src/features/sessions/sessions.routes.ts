import { Router, type CookieOptions, type RequestHandler } from 'express';
import { SESSION_COOKIE, sessionContract } from '@parley/shared';
import { forbidden } from '../../errors/http-error.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import { consoleSessionOf, isSameOrigin } from './session-auth.js';
import type { SessionsService } from './sessions.service.js';

function cookieOptions(publicUrl: string): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: publicUrl.startsWith('https:'), path: '/' };
}

/**
 * `POST /v1/session` (sign-in): public, mounted before the /v1 authentication. The rate limits
 * (sign-in-rate-limits.ts) count every attempt before the body is validated or a key looked up.
 */
export function signInRoutes(sessions: SessionsService, publicUrl: string, rateLimits: RequestHandler[]): Router {
  const router = Router();
  router.post(toExpressPath(sessionContract.create.path), ...rateLimits);
  mountRoute(router, sessionContract.create, async ({ req, body, res }) => {
    // No signing a browser into someone else's organisation from another site (login CSRF).
    if (!isSameOrigin(req, publicUrl)) throw forbidden('cross-site sign-in is refused');
    const { cookie, session } = await sessions.signIn(body.apiKey);
    res.cookie(SESSION_COOKIE, cookie, { ...cookieOptions(publicUrl), expires: new Date(session.expiresAt) });
    res.setHeader('Cache-Control', 'no-store');
    return session;
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
