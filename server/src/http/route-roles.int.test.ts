import { ALL_ROUTES, ANY_ROLE, rolesOf, type Role, type RouteContract } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signInMember } from '../test/member-sessions.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

// Generated from the route table: for every authenticated route, every role it does not list is
// refused with 403 before anything of the request is read, and every role it lists gets past the check.
let ctx: TestContext;
const sessions = new Map<Role, Awaited<ReturnType<typeof signInMember>>>();

beforeAll(async () => {
  ctx = await createTestContext({ env: { CONSOLE_SIGN_IN_RATE_LIMIT: '1000', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '1000' } });
  for (const role of ANY_ROLE) {
    const member = await addMember(ctx, role);
    sessions.set(role, await signInMember(ctx.url, member.email));
  }
});
afterAll(async () => { await ctx?.close(); });

const ID = '0123456789abcdef01234567';
/** A concrete path for a route: every `{param}` a well-formed id or token. */
const pathOf = (route: RouteContract) => route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'token' ? 'x'.repeat(43) : ID));
// Sign-out ends the sessions the other routes are called with: it goes last.
const authenticated = ALL_ROUTES.filter((route) => route.security === 'apiKey')
  .sort((a, b) => Number(a.operationId === 'deleteSession') - Number(b.operationId === 'deleteSession'));

/** Whether a route answers with an event stream that stays open (the inbox's live events). */
const streams = (route: RouteContract) => Object.values(route.responses).some((response) => response.contentType === 'text/event-stream');

async function call(role: Role, route: RouteContract): Promise<{ status: number; body: { message?: unknown } }> {
  const session = sessions.get(role)!;
  const request = session[route.method](pathOf(route)).send({});
  if (!streams(route)) return request;
  // A stream the role may open stays open: still open after a while means it got past the check.
  return request.timeout({ deadline: 3_000 }).catch((err: { timeout?: number }) => {
    if (err.timeout) return { status: 200, body: {} };
    throw err;
  });
}

describe('route roles', () => {
  it('are declared on every authenticated route of the contract', () => {
    expect(authenticated.length).toBeGreaterThan(30);
    expect(authenticated.filter((route) => route.roles === undefined).map((route) => route.operationId)).toEqual([]);
  });

  for (const route of authenticated) {
    const refused = ANY_ROLE.filter((role) => !rolesOf(route).includes(role));
    const allowed = rolesOf(route);
    it(`${route.operationId}: refuses ${refused.join(', ') || 'no role'}; lets ${allowed.join(', ')} through`, async () => {
      for (const role of refused) {
        const response = await call(role, route);
        expect(response.status, `${role} ${route.method} ${route.path}`).toBe(403);
        expect(response.body).toMatchObject({ statusCode: 403, error: 'Forbidden', message: [expect.stringContaining(`your role (${role})`)] });
      }
      for (const role of allowed) {
        const response = await call(role, route);
        expect(String(response.body?.message ?? ''), `${role} ${route.method} ${route.path}`).not.toContain('your role');
      }
    });
  }
});
