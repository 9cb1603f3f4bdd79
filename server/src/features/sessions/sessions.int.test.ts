import { SessionSchema } from '@parley/shared';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
// Sign-in limits and the cap on a key's sessions have their own tests (sign-in-limits.int.test.ts).
beforeAll(async () => {
  ctx = await createTestContext({ env: { CONSOLE_SIGN_IN_RATE_LIMIT: '1000', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '1000', CONSOLE_SESSIONS_PER_KEY: '1000' } });
});
afterAll(async () => { await ctx?.close(); });

/** Signs in with a key and returns the cookie header to send and the session body. */
async function signIn(apiKey = ctx.org.apiKey) {
  const response = await ctx.anonymous.post('/v1/session').send({ apiKey }).expect(201);
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const cookie = setCookie[0]!.split(';')[0]!;
  return { cookie, setCookie: setCookie[0]!, session: SessionSchema.parse(response.body) };
}

const request = () => supertest(ctx.url);

describe('console sessions', () => {
  it('exchanges a key for an HttpOnly SameSite=Strict cookie that never holds the key', async () => {
    const { setCookie, cookie, session } = await signIn();
    expect(setCookie).toMatch(/^parley_session=[0-9a-f]{24}\.[\w-]{43}; /);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Expires=/);
    expect(cookie).not.toContain(ctx.org.apiKey);
    expect(JSON.stringify(session)).not.toContain(ctx.org.apiKey);
    expect(session.organisation).toBe(ctx.org.organisationId);
    await request().get('/v1/chatbot/all').set('cookie', cookie).expect(200);
    const current = await request().get('/v1/session').set('cookie', cookie).expect(200);
    expect(current.body.csrfToken).toBe(session.csrfToken);
  });

  it('says whether a video host is configured, so the console offers hosted videos only then', async () => {
    const { session } = await signIn();
    expect(session.features).toEqual({ hostedVideo: false });
    const withHost = await createTestContext({ env: { VIDEO_HOST_URL: 'http://127.0.0.1:9/videos/{id}.json' } });
    try {
      const response = await withHost.anonymous.post('/v1/session').send({ apiKey: withHost.org.apiKey }).expect(201);
      expect(response.body.features).toEqual({ hostedVideo: true });
    } finally {
      await withHost.close();
    }
  });

  it('answers 401 for a wrong key, and without a session or key', async () => {
    const wrong = await ctx.anonymous.post('/v1/session').send({ apiKey: 'pk_not-a-key' }).expect(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: ['the API key is invalid or revoked'], error: 'Unauthorized' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    await request().get('/v1/chatbot/all').expect(401);
    await ctx.anonymous.post('/v1/session').send({ apiKey: ctx.org.apiKey, extra: 1 }).expect(400);
    const crossSite = await ctx.anonymous.post('/v1/session').set('origin', 'https://evil.example').send({ apiKey: ctx.org.apiKey }).expect(403);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a forged or tampered cookie', async () => {
    const { cookie } = await signIn();
    const tampered = cookie.slice(0, -2) + (cookie.endsWith('AA') ? 'BB' : 'AA');
    await request().get('/v1/chatbot/all').set('cookie', tampered).expect(401);
    await request().get('/v1/chatbot/all').set('cookie', 'parley_session=0123456789abcdef01234567.x').expect(401);
  });

  it('answers 401, never 500, for a session cookie that is not valid percent-encoding', async () => {
    for (const value of ['%', '%E0%A4%A', `${'0'.repeat(24)}.%`]) {
      const response = await request().get('/v1/chatbot/all').set('cookie', `parley_session=${value}`).expect(401);
      expect(response.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      await request().delete('/v1/session').set('cookie', `a=1; parley_session=${value}`).expect(401);
    }
  });

  it('refuses state-changing calls without the CSRF token, with a wrong one, or from another site', async () => {
    const { cookie, session } = await signIn();
    const missing = await request().post('/v1/chatbot').set('cookie', cookie).send({ name: 'No token' }).expect(403);
    expect(missing.body.message).toEqual(['the x-csrf-token header must carry the session\'s CSRF token']);
    await request().post('/v1/chatbot').set('cookie', cookie).set('x-csrf-token', 'x'.repeat(43)).send({ name: 'Wrong' }).expect(403);
    const other = await signIn();
    await request().post('/v1/chatbot').set('cookie', cookie).set('x-csrf-token', other.session.csrfToken).send({ name: 'Other' }).expect(403);
    await request().post('/v1/chatbot').set('cookie', cookie).set('x-csrf-token', session.csrfToken)
      .set('origin', 'https://evil.example').send({ name: 'Cross-site' }).expect(403);
    await request().delete('/v1/session').set('cookie', cookie).set('sec-fetch-site', 'cross-site').set('x-csrf-token', session.csrfToken).expect(403);
    const created = await request().post('/v1/chatbot').set('cookie', cookie).set('x-csrf-token', session.csrfToken)
      .set('origin', ctx.url).send({ name: 'Same site' }).expect(201);
    expect(created.body.creator).toBe(ctx.org.userId);
    expect((await ctx.database.db('chatbots').whereIn('name', ['No token', 'Wrong', 'Other', 'Cross-site'])).length).toBe(0);
  });

  it('ends at its expiry', async () => {
    const { cookie } = await signIn();
    await request().get('/v1/chatbot/all').set('cookie', cookie).expect(200);
    const id = cookie.split('=')[1]!.split('.')[0]!;
    await ctx.database.db('console_sessions').where({ id }).update({ expires_at: Date.now() - 1 });
    const expired = await request().get('/v1/chatbot/all').set('cookie', cookie).expect(401);
    expect(expired.body.message).toEqual(['the console session has ended or expired; sign in again']);
  });

  it('ends when its key is revoked', async () => {
    const key = (await ctx.services.organisations.createKey(ctx.org.organisationId, 'console'))!;
    const { cookie } = await signIn(key.apiKey);
    await request().get('/v1/resource/all').set('cookie', cookie).expect(200);
    await ctx.services.organisations.revokeKey(key.keyId);
    await request().get('/v1/resource/all').set('cookie', cookie).expect(401);
  });

  it('signs out: the cookie is cleared and the old cookie refused', async () => {
    const { cookie, session } = await signIn();
    const out = await request().delete('/v1/session').set('cookie', cookie).set('x-csrf-token', session.csrfToken).expect(204);
    expect(String(out.headers['set-cookie'])).toMatch(/parley_session=;/);
    await request().get('/v1/chatbot/all').set('cookie', cookie).expect(401);
    await request().get('/v1/session').set('cookie', cookie).expect(401);
  });

  it('scopes a session to its key\'s organisation', async () => {
    const other = await ctx.newOrganisation();
    const id = (await other.api.post('/v1/chatbot').send({ name: 'Theirs' }).expect(201)).body.id;
    const { cookie } = await signIn();
    await request().get(`/v1/chatbot/${id}`).set('cookie', cookie).expect(404);
  });

  it('prefers x-api-key over a cookie, and GET /v1/session needs a session', async () => {
    await ctx.api.get('/v1/session').expect(401);
    const { cookie } = await signIn();
    await request().get('/v1/chatbot/all').set('cookie', cookie).set('x-api-key', 'pk_wrong').expect(401);
  });
});
