import { MemberSchema, SessionSchema } from '@parley/shared';
import { pino } from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { createServices } from '../../services.js';
import { addMember, GOOD_PASSWORD, signInMember } from '../../test/member-sessions.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CONSOLE_SIGN_IN_RATE_LIMIT: '1000', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '1000' } });
});
afterAll(async () => { await ctx?.close(); });

/** Signs in with the organisation's key, as the console's first screen does. */
async function keySession(apiKey = ctx.org.apiKey) {
  const response = await ctx.anonymous.post('/v1/session').send({ apiKey }).expect(201);
  const cookie = String(([] as string[]).concat(response.headers['set-cookie'] ?? [])[0]).split(';')[0]!;
  return { cookie, csrf: response.body.csrfToken as string, session: SessionSchema.parse(response.body) };
}

describe('first run', () => {
  it('lets the key create the OWNER once, switching the console session to the owner', async () => {
    const other = await ctx.newOrganisation();
    const { cookie, csrf, session } = await keySession(other.apiKey);
    expect(session.needsOwner).toBe(true);
    expect(session.member).toBeUndefined();
    expect((await ctx.anonymous.get('/v1/session/methods').expect(200)).body).toEqual({ password: false, mail: false });

    const weak = await supertest(ctx.url).post('/v1/member/owner').set('cookie', cookie).set('x-csrf-token', csrf)
      .send({ email: 'owner@example.com', name: 'Olu', password: 'password123' }).expect(400);
    expect(weak.body.message).toEqual(['password is a commonly used password; choose another']);
    const short = await supertest(ctx.url).post('/v1/member/owner').set('cookie', cookie).set('x-csrf-token', csrf)
      .send({ email: 'owner@example.com', name: 'Olu', password: 'short' }).expect(400);
    expect(short.body.message).toEqual(['password must be at least 10 characters']);

    const created = await supertest(ctx.url).post('/v1/member/owner').set('cookie', cookie).set('x-csrf-token', csrf)
      .send({ email: 'Owner@Example.com', name: 'Olu', password: GOOD_PASSWORD }).expect(201);
    expect(MemberSchema.parse(created.body)).toMatchObject({ email: 'owner@example.com', name: 'Olu', role: 'OWNER' });
    expect(JSON.stringify(created.body)).not.toContain('scrypt');
    // The key's session ended; the new cookie is the owner's.
    await supertest(ctx.url).get('/v1/session').set('cookie', cookie).expect(401);
    const ownerCookie = String(created.headers['set-cookie']).split(';')[0]!;
    const mine = SessionSchema.parse((await supertest(ctx.url).get('/v1/session').set('cookie', ownerCookie).expect(200)).body);
    expect(mine).toMatchObject({ member: { email: 'owner@example.com', role: 'OWNER' }, needsOwner: false });

    await other.api.post('/v1/member/owner').send({ email: 'second@example.com', name: 'Sam', password: GOOD_PASSWORD }).expect(409);
    expect((await ctx.anonymous.get('/v1/session/methods').expect(200)).body).toEqual({ password: true, mail: false });
    // The key still signs in (API clients keep full access).
    expect((await keySession(other.apiKey)).session.needsOwner).toBe(false);
  });
});

describe('invitations', () => {
  it('invite → accept → sign in, once; an expired invitation is refused', async () => {
    const invitation = (await ctx.api.post('/v1/member/invitation').send({ email: 'Agent.Ana@example.com', role: 'AGENT' }).expect(201)).body;
    expect(invitation.url).toBe(`${ctx.url}/console/invitation#${invitation.token}`);
    expect(invitation.expiresAt - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);

    await ctx.anonymous.post(`/v1/member/invitation/${invitation.token}/accept`).send({ name: 'Ana', password: 'qwertyuiop' }).expect(400);
    const accepted = await ctx.anonymous.post(`/v1/member/invitation/${invitation.token}/accept`).send({ name: 'Ana', password: GOOD_PASSWORD }).expect(201);
    expect(accepted.body).toMatchObject({ email: 'agent.ana@example.com', name: 'Ana', role: 'AGENT' });
    const used = await ctx.anonymous.post(`/v1/member/invitation/${invitation.token}/accept`).send({ name: 'Eve', password: GOOD_PASSWORD }).expect(404);
    expect(used.body.message).toEqual(['invitation (unknown, used or expired) not found']);

    const ana = await signInMember(ctx.url, 'AGENT.ANA@example.com');
    expect(ana.session.member).toMatchObject({ name: 'Ana', role: 'AGENT' });
    expect((await ana.get('/v1/session').expect(200)).body.member.role).toBe('AGENT');

    const late = (await ctx.api.post('/v1/member/invitation').send({ email: 'late@example.com', role: 'ADMIN' }).expect(201)).body;
    await ctx.database.db('member_invitations').where({ email: 'late@example.com' }).update({ expires_at: Date.now() - 1 });
    await ctx.anonymous.post(`/v1/member/invitation/${late.token}/accept`).send({ name: 'Late', password: GOOD_PASSWORD }).expect(404);
    await ctx.anonymous.post(`/v1/member/invitation/${'A'.repeat(43)}/accept`).send({ name: 'Guess', password: GOOD_PASSWORD }).expect(404);
    await ctx.anonymous.post('/v1/member/invitation/short/accept').send({ name: 'Bad', password: GOOD_PASSWORD }).expect(400);
  });

  it('refuses inviting an address that is a member already, and bad input', async () => {
    const { email } = await addMember(ctx, 'ADMIN');
    await ctx.api.post('/v1/member/invitation').send({ email, role: 'AGENT' }).expect(409);
    await ctx.api.post('/v1/member/invitation').send({ email: 'not-an-address', role: 'AGENT' }).expect(400);
    await ctx.api.post('/v1/member/invitation').send({ email: 'x@example.com', role: 'KING' }).expect(400);
  });
});

describe('sign-in with e-mail and password', () => {
  it('answers one 401 for a wrong password and an unknown address', async () => {
    const { email } = await addMember(ctx, 'ADMIN');
    const wrong = await ctx.anonymous.post('/v1/session').send({ email, password: 'not the password' }).expect(401);
    const unknown = await ctx.anonymous.post('/v1/session').send({ email: 'nobody@example.com', password: 'not the password' }).expect(401);
    expect(wrong.body.message).toEqual(['the e-mail address or password is wrong']);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    await ctx.anonymous.post('/v1/session').send({ email, password: GOOD_PASSWORD, apiKey: 'x' }).expect(400);
  });
});

describe('an AGENT', () => {
  it('gets 403 changing chatbots, resources, members and keys, and 200 reading conversations', async () => {
    const chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Support' }).expect(201)).body.id;
    const resourceId = (await ctx.api.post('/v1/resource/text').send({ name: 'Hours', content: 'We open at nine.' }).expect(201)).body.id;
    await ctx.api.post('/v1/conversation').send({ chatbotId, messages: [{ text: 'Hello?', fromUser: true }] }).expect(201);
    const owner = await addMember(ctx, 'OWNER');
    const agent = await signInMember(ctx.url, (await addMember(ctx, 'AGENT')).email);

    const refusals: [string, supertest.Test][] = [
      agent.post('/v1/chatbot').send({ name: 'Mine' }), agent.put(`/v1/chatbot/${chatbotId}`).send({ name: 'Renamed' }),
      agent.delete(`/v1/chatbot/${chatbotId}`), agent.post('/v1/resource/text').send({ name: 'Mine', content: 'Words.' }),
      agent.delete(`/v1/resource/${resourceId}`), agent.post('/v1/member/invitation').send({ email: 'pal@example.com', role: 'OWNER' }),
      agent.delete(`/v1/member/${owner.id}`), agent.get('/v1/member/all'), agent.post('/v1/api-key').send({ name: 'Mine' }),
      agent.get('/v1/api-key/all'), agent.delete(`/v1/api-key/${ctx.org.keyId}`),
    ].map((test) => [`${test.method} ${test.url}`, test]);
    for (const [what, refused] of refusals) {
      const response = await refused;
      expect(response.status, what).toBe(403);
      expect(response.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect((await ctx.api.get(`/v1/chatbot/${chatbotId}`).expect(200)).body.name).toBe('Support');
    await ctx.api.get(`/v1/resource/${resourceId}`).expect(200);

    await agent.get(`/v1/chatbot/${chatbotId}`).expect(200);
    await agent.get('/v1/resource/all').expect(200);
    const conversations = await agent.get(`/v1/conversation/${chatbotId}`).expect(200);
    expect(conversations.body.conversations).toHaveLength(1);
    await agent.get(`/v1/lead/${chatbotId}`).expect(200);
  });

  it('an ADMIN changes chatbots but not members or keys, and what it creates names it', async () => {
    const admin = await addMember(ctx, 'ADMIN');
    const session = await signInMember(ctx.url, admin.email);
    const created = await session.post('/v1/chatbot').send({ name: 'By the admin' }).expect(201);
    expect(created.body.creator).toBe(admin.id);
    await session.get('/v1/member/all').expect(403);
    await session.post('/v1/api-key').send({ name: 'Mine' }).expect(403);
  });
});

describe('a member\'s profile', () => {
  it('changes its own name and avatar; an API key has no profile', async () => {
    const member = await addMember(ctx, 'AGENT');
    const session = await signInMember(ctx.url, member.email);
    const updated = await session.put('/v1/member/me').send({ name: 'Ana Lima', avatarUrl: 'https://example.com/ana.png' }).expect(200);
    expect(updated.body).toMatchObject({ id: member.id, name: 'Ana Lima', avatarUrl: 'https://example.com/ana.png', role: 'AGENT' });
    expect((await session.get('/v1/session').expect(200)).body.member).toMatchObject({ name: 'Ana Lima', avatarUrl: 'https://example.com/ana.png' });
    await session.put('/v1/member/me').send({ avatarUrl: 'http://example.com/ana.png' }).expect(400);
    await session.put('/v1/member/me').send({ avatarUrl: 'javascript:alert(1)' }).expect(400);
    await session.put('/v1/member/me').send({ role: 'OWNER' }).expect(400);
    expect((await session.put('/v1/member/me').send({ avatarUrl: null }).expect(200)).body.avatarUrl).toBeUndefined();
    await ctx.api.put('/v1/member/me').send({ name: 'Key' }).expect(403);
  });
});

describe('members and keys', () => {
  it('lists members and removes one, ending its session at once on every instance; the last OWNER stays', async () => {
    const second = createApp(createServices(ctx.config, ctx.database, pino({ level: 'silent' })));
    const agent = await addMember(ctx, 'AGENT');
    const here = await signInMember(ctx.url, agent.email);
    const there = await signInMember(second, agent.email);
    await here.get('/v1/chatbot/all').expect(200);
    await there.get('/v1/chatbot/all').expect(200);

    const listed = (await ctx.api.get('/v1/member/all').expect(200)).body;
    expect(listed.map((member: { id: string }) => member.id)).toContain(agent.id);
    expect(JSON.stringify(listed)).not.toMatch(/password|scrypt/);
    expect((await ctx.api.delete(`/v1/member/${agent.id}`).expect(200)).body.id).toBe(agent.id);
    await here.get('/v1/chatbot/all').expect(401);
    await there.get('/v1/chatbot/all').expect(401);
    await ctx.api.delete(`/v1/member/${agent.id}`).expect(404);

    const other = await ctx.newOrganisation();
    const theirs = await addMember(ctx, 'OWNER', other.organisationId);
    await ctx.api.delete(`/v1/member/${theirs.id}`).expect(404);
    expect((await ctx.api.get('/v1/member/all')).body.map((member: { id: string }) => member.id)).not.toContain(theirs.id);
    const last = await other.api.delete(`/v1/member/${theirs.id}`).expect(409);
    expect(last.body.message).toEqual(['the organisation\'s last OWNER cannot be removed']);
  });

  it('creates a named key shown once, lists it without the secret, and revoking it ends its sessions', async () => {
    const owner = await signInMember(ctx.url, (await addMember(ctx, 'OWNER')).email);
    const created = (await owner.post('/v1/api-key').send({ name: 'Zapier' }).expect(201)).body;
    expect(created).toMatchObject({ name: 'Zapier', apiKey: expect.stringMatching(/^pk_/), prefix: created.apiKey.slice(0, 9) });
    const listed = (await owner.get('/v1/api-key/all').expect(200)).body;
    expect(listed.find((key: { id: string }) => key.id === created.id)).toEqual({ id: created.id, name: 'Zapier', prefix: created.prefix, createdAt: created.createdAt });
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);

    const { cookie } = await keySession(created.apiKey);
    await supertest(ctx.url).get('/v1/chatbot/all').set('cookie', cookie).expect(200);
    const revoked = (await owner.delete(`/v1/api-key/${created.id}`).expect(200)).body;
    expect(revoked.revokedAt).toBeGreaterThan(0);
    await supertest(ctx.url).get('/v1/chatbot/all').set('cookie', cookie).expect(401);
    await supertest(ctx.url).get('/v1/chatbot/all').set('x-api-key', created.apiKey).expect(401);
    await owner.delete(`/v1/api-key/${created.id}`).expect(404);

    const other = await ctx.newOrganisation();
    await owner.delete(`/v1/api-key/${other.keyId}`).expect(404);
    await other.api.get('/v1/chatbot/all').expect(200);
    await owner.post('/v1/api-key').send({ name: '' }).expect(400);
  });
});
