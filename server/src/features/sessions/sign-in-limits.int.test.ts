import { pino } from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { createServices } from '../../services.js';
import { addMember, GOOD_PASSWORD } from '../../test/member-sessions.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

/** A sign-in from a client address (behind TRUST_PROXY=1, the proxy's `X-Forwarded-For`). */
const signIn = (target: Parameters<typeof supertest>[0], apiKey: string, address: string) =>
  supertest(target).post('/v1/session').set('x-forwarded-for', address).send({ apiKey });

/** Ends the current windows of a limiter, as if 15 minutes had passed. */
async function endWindows(ctx: TestContext, prefix: string) {
  await ctx.database.db('rate_limit_hits').where('key', 'like', `${prefix}:%`).update({ reset_at: Date.now() - 1 });
}

function expect429(response: supertest.Response) {
  expect(response.status).toBe(429);
  expect(response.text).toBe('');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.headers['ratelimit-limit']).toBeDefined();
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(response.headers['ratelimit-reset']).toBeDefined();
  expect(response.headers['set-cookie']).toBeUndefined();
}

describe('console sign-in rate limits (429)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '1', CONSOLE_SIGN_IN_RATE_LIMIT: '3', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '3' } });
  });
  afterAll(async () => { await ctx?.close(); });

  it('stops an address after its attempts, even with the right key, until the window ends', async () => {
    const server = ctx.url;
    for (let i = 0; i < 3; i++) expect((await signIn(server, `pk_wrong-${i}`, '198.51.100.1')).status).toBe(401);
    expect429(await signIn(server, 'pk_wrong-3', '198.51.100.1'));
    expect429(await signIn(server, ctx.org.apiKey, '198.51.100.1'));
    // Malformed bodies count too: the limit is checked before validation.
    expect429(await supertest(server).post('/v1/session').set('x-forwarded-for', '198.51.100.1').send({}));
    // Another address has its own count.
    expect((await signIn(server, ctx.org.apiKey, '198.51.100.2')).status).toBe(201);
    await endWindows(ctx, 'console-sign-in-address');
    expect((await signIn(server, ctx.org.apiKey, '198.51.100.1')).status).toBe(201);
  });

  it('stops one key tried from many addresses, and spares other keys', async () => {
    const key = (await ctx.services.organisations.createKey(ctx.org.organisationId, 'limited'))!;
    for (let i = 0; i < 3; i++) expect((await signIn(ctx.url, key.apiKey, `203.0.113.${i}`)).status).toBe(201);
    expect429(await signIn(ctx.url, key.apiKey, '203.0.113.50'));
    expect((await signIn(ctx.url, ctx.org.apiKey, '203.0.113.51')).status).toBe(201);
    await endWindows(ctx, 'console-sign-in-key');
    expect((await signIn(ctx.url, key.apiKey, '203.0.113.52')).status).toBe(201);
  });

  it('shares the counts between instances on one database', async () => {
    const second = createApp(createServices(ctx.config, ctx.database, pino({ level: 'silent' })));
    expect((await signIn(ctx.url, 'pk_wrong-a', '192.0.2.7')).status).toBe(401);
    expect((await signIn(second, 'pk_wrong-b', '192.0.2.7')).status).toBe(401);
    expect((await signIn(ctx.url, 'pk_wrong-c', '192.0.2.7')).status).toBe(401);
    expect429(await signIn(second, ctx.org.apiKey, '192.0.2.7'));
    const key = (await ctx.services.organisations.createKey(ctx.org.organisationId, 'shared'))!;
    expect((await signIn(second, key.apiKey, '192.0.2.10')).status).toBe(201);
    expect((await signIn(ctx.url, key.apiKey, '192.0.2.11')).status).toBe(201);
    expect((await signIn(second, key.apiKey, '192.0.2.12')).status).toBe(201);
    expect429(await signIn(ctx.url, key.apiKey, '192.0.2.13'));
  });

  it('counts accepting invitations per address with sign-ins, so tokens cannot be guessed at speed', async () => {
    const accept = (address: string) => supertest(ctx.url).post(`/v1/member/invitation/${'A'.repeat(43)}/accept`)
      .set('x-forwarded-for', address).send({ name: 'Guess', password: GOOD_PASSWORD });
    for (let i = 0; i < 2; i++) expect((await accept('198.19.0.1')).status).toBe(404);
    expect((await signIn(ctx.url, 'pk_wrong-z', '198.19.0.1')).status).toBe(401);
    expect429(await accept('198.19.0.1'));
    expect((await accept('198.19.0.2')).status).toBe(404);
  });

  it('slows and then refuses guessing one member\'s password from many addresses, across instances', async () => {
    const second = createApp(createServices(ctx.config, ctx.database, pino({ level: 'silent' })));
    const member = await addMember(ctx, 'AGENT');
    const guess = (target: Parameters<typeof supertest>[0], password: string, address: string, email = member.email) =>
      supertest(target).post('/v1/session').set('x-forwarded-for', address).send({ email, password });
    expect((await guess(ctx.url, 'guess-number-1', '198.18.0.1')).status).toBe(401);
    expect((await guess(second, 'guess-number-2', '198.18.0.2')).status).toBe(401);
    // The address in another case is the same account.
    expect((await guess(ctx.url, 'guess-number-3', '198.18.0.3', member.email.toUpperCase())).status).toBe(401);
    // Even the right password now waits for the window, on either instance.
    expect429(await guess(second, GOOD_PASSWORD, '198.18.0.4'));
    expect429(await guess(ctx.url, GOOD_PASSWORD, '198.18.0.5'));
    // Another member is not held up.
    const other = await addMember(ctx, 'AGENT');
    expect((await guess(second, GOOD_PASSWORD, '198.18.0.6', other.email)).status).toBe(201);
    await endWindows(ctx, 'console-sign-in-key');
    expect((await guess(ctx.url, GOOD_PASSWORD, '198.18.0.7')).status).toBe(201);
  });
});

describe('console session pruning', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { CONSOLE_SESSIONS_PER_KEY: '3', CONSOLE_SIGN_IN_RATE_LIMIT: '100' } }); });
  afterAll(async () => { await ctx?.close(); });

  const cookieOf = (response: supertest.Response) => ([] as string[]).concat(response.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;

  it('keeps a key\'s newest sessions only: the oldest beyond the cap ends', async () => {
    const cookies: string[] = [];
    for (let i = 0; i < 5; i++) cookies.push(cookieOf(await ctx.anonymous.post('/v1/session').send({ apiKey: ctx.org.apiKey }).expect(201)));
    const rows = await ctx.database.db('console_sessions').where({ key_id: ctx.org.keyId });
    expect(rows).toHaveLength(3);
    const statuses = [];
    for (const cookie of cookies) statuses.push((await supertest(ctx.url).get('/v1/session').set('cookie', cookie)).status);
    expect(statuses).toEqual([401, 401, 200, 200, 200]);
    // Another key's sessions are not counted against this one.
    const other = (await ctx.services.organisations.createKey(ctx.org.organisationId, 'other'))!;
    await ctx.anonymous.post('/v1/session').send({ apiKey: other.apiKey }).expect(201);
    expect(await ctx.database.db('console_sessions').where({ key_id: ctx.org.keyId })).toHaveLength(3);
  });

  it('deletes expired and ended sessions at the next sign-in', async () => {
    const key = (await ctx.services.organisations.createKey(ctx.org.organisationId, 'pruned'))!;
    const now = Date.now();
    await ctx.database.db('console_sessions').insert([
      { id: 'e'.repeat(24), key_id: key.keyId, organisation_id: ctx.org.organisationId, created_at: now - 10, expires_at: now - 1, ended_at: null },
      { id: 'f'.repeat(24), key_id: key.keyId, organisation_id: ctx.org.organisationId, created_at: now - 10, expires_at: now + 60_000, ended_at: now - 1 },
    ]);
    await ctx.anonymous.post('/v1/session').send({ apiKey: key.apiKey }).expect(201);
    expect((await ctx.database.db('console_sessions').where({ key_id: key.keyId })).map((row: { id: string }) => row.id)).not.toContain('e'.repeat(24));
    expect(await ctx.database.db('console_sessions').whereIn('id', ['e'.repeat(24), 'f'.repeat(24)])).toEqual([]);
  });
});
