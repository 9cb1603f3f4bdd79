import { SessionCreateSchema, SessionSchema, SignInMethodsSchema } from '../sessions/session.schema.js';
import { ANY_ROLE, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Console session';

/**
 * Cookie sessions of the owner console (extension). A session is an HttpOnly, SameSite=Strict,
 * signed and expiring cookie that every `/v1` route accepts in place of `x-api-key`; it ends with
 * sign-out, at its expiry, or when its key is revoked.
 */
export const sessionContract = {
  create: defineRoute({
    operationId: 'createSession', method: 'post', path: '/v1/session', tag, security: 'public',
    summary: 'Sign in: exchange an API key, or a member\'s e-mail and password, for a console session cookie',
    description: 'With `{apiKey}` the session has the key\'s full access; with `{email, password}` (extension) it is the member\'s, '
      + 'limited to its role. Sets the `parley_session` cookie (HttpOnly, SameSite=Strict, signed, expiring). Calls made with the cookie '
      + 'instead of `x-api-key` must send `x-csrf-token` (from this answer) on POST, PUT and DELETE, and a cross-site `Origin` is refused (403), here too. '
      + 'Attempts are limited per 15 minutes, right or wrong: `CONSOLE_SIGN_IN_RATE_LIMIT` per client address (default 20) and '
      + '`CONSOLE_SIGN_IN_KEY_RATE_LIMIT` per key or e-mail address tried (default 10), then 429 with `Retry-After`. A key keeps its '
      + '`CONSOLE_SESSIONS_PER_KEY` newest sessions (default 10); signing in beyond that ends its oldest.',
    body: SessionCreateSchema,
    responses: { 201: { description: 'The session.', schema: SessionSchema }, ...errorResponses(400, 401, 403, 429, 500) },
  }),
  methods: defineRoute({
    operationId: 'getSignInMethods', method: 'get', path: '/v1/session/methods', tag, security: 'public',
    summary: 'Which sign-in forms to offer (extension)',
    responses: { 200: { description: 'The methods.', schema: SignInMethodsSchema }, ...errorResponses(500) },
  }),
  get: defineRoute({
    operationId: 'getSession', method: 'get', path: '/v1/session', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The current console session (and its CSRF token)',
    description: 'Extensions: `member` names the member signed in (absent for a key\'s session); `needsOwner` is true while the organisation has no members.',
    responses: { 200: { description: 'The session.', schema: SessionSchema }, ...errorResponses(401, 500) },
  }),
  remove: defineRoute({
    operationId: 'deleteSession', method: 'delete', path: '/v1/session', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Sign out: the session cookie is refused from now on',
    responses: { 204: { description: 'Signed out; the cookie is cleared.' }, ...errorResponses(401, 403, 500) },
  }),
};
