import type { Role } from '@parley/shared';
import supertest from 'supertest';
import { newId } from '../db/ids.js';
import { hashPassword } from '../features/members/password.js';
import type { TestContext } from './test-app.js';

/** A password that passes the length and common-password checks. */
export const GOOD_PASSWORD = 'correct horse battery staple';

/** Adds a member with a role straight into the database (what an accepted invitation makes). */
export async function addMember(ctx: TestContext, role: Role, organisationId = ctx.org.organisationId, password = GOOD_PASSWORD) {
  const id = newId();
  const email = `${role.toLowerCase()}-${id}@example.com`;
  await ctx.services.members.repository.insert({
    id, organisation_id: organisationId, email, name: `${role} ${id.slice(-4)}`, avatar_url: null, role,
    password_hash: await hashPassword(password), created_at: Date.now(),
  });
  return { id, email, password };
}

/** A member's console session: calls carry its cookie, and its CSRF token on state-changing ones. */
export async function signInMember(target: Parameters<typeof supertest>[0], email: string, password = GOOD_PASSWORD) {
  const response = await supertest(target).post('/v1/session').send({ email, password });
  if (response.status !== 201) throw new Error(`sign-in answered ${response.status}: ${response.text}`);
  const cookie = String(([] as string[]).concat(response.headers['set-cookie'] ?? [])[0]).split(';')[0]!;
  const csrf = response.body.csrfToken as string;
  const agent = supertest(target);
  return {
    cookie, csrf, session: response.body,
    get: (url: string) => agent.get(url).set('cookie', cookie),
    post: (url: string) => agent.post(url).set('cookie', cookie).set('x-csrf-token', csrf),
    put: (url: string) => agent.put(url).set('cookie', cookie).set('x-csrf-token', csrf),
    delete: (url: string) => agent.delete(url).set('cookie', cookie).set('x-csrf-token', csrf),
  };
}
