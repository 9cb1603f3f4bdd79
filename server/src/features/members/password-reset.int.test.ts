import type { ParsedMail } from 'mailparser';
import { SessionSchema } from '@parley/shared';
import supertest from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMember, GOOD_PASSWORD, signInMember } from '../../test/member-sessions.js';
import { SmtpSink } from '../../test/smtp-sink.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

const NEW_PASSWORD = 'a fresh and long passphrase';
let ctx: TestContext;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  // Sign-in limits low enough to reach: reset requests count against them.
  ctx = await createTestContext({ env: {
    SMTP_URL: smtpUrl, MAIL_FROM: 'Parley <parley@test.example>', CONSOLE_SIGN_IN_RATE_LIMIT: '1000', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '5',
  } });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});
beforeEach(() => { smtp.mails.length = 0; });

/** The console link a mail carries, and its token (in the fragment). */
function linkIn(mail: ParsedMail, page: string): { url: string; token: string } {
  const match = new RegExp(`${ctx.url}/console/${page}#([\\w-]{43})`).exec(mail.text ?? '');
  if (!match) throw new Error(`no ${page} link in: ${mail.text}`);
  expect(mail.html).toContain(match[0]);
  return { url: match[0], token: match[1]! };
}

describe('invitations by e-mail', () => {
  it('mails the invitation link to the invitee, naming who invited them, the organisation, the role and the expiry', async () => {
    const owner = await addMember(ctx, 'OWNER');
    const session = await signInMember(ctx.url, owner.email);
    const invitation = (await session.post('/v1/member/invitation').send({ email: 'New.Person@example.com', role: 'AGENT' }).expect(201)).body;
    expect(invitation).toMatchObject({ mailed: true, url: `${ctx.url}/console/invitation#${invitation.token}` });

    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toMatchObject({ value: [{ address: 'new.person@example.com' }] });
    expect(mail!.from?.text).toContain('parley@test.example');
    expect(mail!.subject).toMatch(/^\[Parley\] OWNER .* invites you to /);
    expect(mail!.text).toContain('as AGENT');
    expect(mail!.text).toContain(new Date(invitation.expiresAt).toUTCString());
    expect(linkIn(mail!, 'invitation').token).toBe(invitation.token);
    // The link is the only secret in it.
    expect(mail!.text).not.toContain(ctx.org.apiKey);

    await ctx.anonymous.post(`/v1/member/invitation/${invitation.token}/accept`).send({ name: 'New', password: GOOD_PASSWORD }).expect(201);
  });

  it('invited with an API key, the mail names the owner', async () => {
    await ctx.api.post('/v1/member/invitation').send({ email: 'by-key@example.com', role: 'ADMIN' }).expect(201);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.text).toContain('The organisation\'s owner invites you');
    expect(mail!.text).toContain('as ADMIN');
  });
});

describe('password reset by e-mailed link', () => {
  it('mails a one-time link that sets a new password and ends the member\'s sessions', async () => {
    const member = await addMember(ctx, 'ADMIN');
    const before = await signInMember(ctx.url, member.email);
    expect((await ctx.anonymous.get('/v1/session/methods').expect(200)).body).toEqual({ password: true, mail: true });

    const asked = await ctx.anonymous.post('/v1/member/password-reset').send({ email: member.email.toUpperCase() });
    expect(asked.status).toBe(202);
    expect(asked.text).toBe('');
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toMatchObject({ value: [{ address: member.email }] });
    expect(mail!.subject).toBe('[Parley] Reset your password');
    const { token } = linkIn(mail!, 'password-reset');
    // Hashed at rest: the token itself is stored nowhere.
    const rows = await ctx.database.db('member_invitations').where({ email: member.email });
    expect(JSON.stringify(rows)).not.toContain(token);

    const weak = await ctx.anonymous.post(`/v1/member/password-reset/${token}`).send({ password: 'password123' }).expect(400);
    expect(weak.body.message).toEqual(['password is a commonly used password; choose another']);
    await ctx.anonymous.post(`/v1/member/password-reset/${token}`).send({ password: NEW_PASSWORD }).expect(204);
    // Works once.
    const used = await ctx.anonymous.post(`/v1/member/password-reset/${token}`).send({ password: NEW_PASSWORD }).expect(404);
    expect(used.body.message).toEqual(['password reset link (unknown, used or expired) not found']);

    await before.get('/v1/session').expect(401);
    await ctx.anonymous.post('/v1/session').send({ email: member.email, password: GOOD_PASSWORD }).expect(401);
    const after = await signInMember(ctx.url, member.email, NEW_PASSWORD);
    expect(SessionSchema.parse(after.session).member?.email).toBe(member.email);
    // A reset token is no invitation.
    await ctx.anonymous.post(`/v1/member/invitation/${token}/accept`).send({ name: 'Eve', password: GOOD_PASSWORD }).expect(404);
  });

  it('answers 202 for an unknown address and mails nothing', async () => {
    await ctx.anonymous.post('/v1/member/password-reset').send({ email: 'nobody@example.com' }).expect(202);
    const member = await addMember(ctx, 'AGENT');
    await ctx.anonymous.post('/v1/member/password-reset').send({ email: member.email }).expect(202);
    await smtp.waitFor(1);
    expect(smtp.mails.map((mail) => mail.to)).toMatchObject([{ value: [{ address: member.email }] }]);
  });

  it('refuses an expired link, a replaced link, a wrong token and bad input', async () => {
    const member = await addMember(ctx, 'AGENT');
    await ctx.anonymous.post('/v1/member/password-reset').send({ email: member.email }).expect(202);
    const first = linkIn((await smtp.waitFor(1))[0]!, 'password-reset').token;
    await ctx.anonymous.post('/v1/member/password-reset').send({ email: member.email }).expect(202);
    const second = linkIn((await smtp.waitFor(2))[1]!, 'password-reset').token;
    // A newer link replaces the older one.
    await ctx.anonymous.post(`/v1/member/password-reset/${first}`).send({ password: NEW_PASSWORD }).expect(404);
    await ctx.database.db('member_invitations').where({ email: member.email }).update({ expires_at: Date.now() - 1 });
    await ctx.anonymous.post(`/v1/member/password-reset/${second}`).send({ password: NEW_PASSWORD }).expect(404);
    await signInMember(ctx.url, member.email);

    await ctx.anonymous.post(`/v1/member/password-reset/${'A'.repeat(43)}`).send({ password: NEW_PASSWORD }).expect(404);
    await ctx.anonymous.post('/v1/member/password-reset/short').send({ password: NEW_PASSWORD }).expect(400);
    await ctx.anonymous.post('/v1/member/password-reset').send({ email: 'not an address' }).expect(400);
    await ctx.anonymous.post('/v1/member/password-reset').send({}).expect(400);
  });

  it('an invitation token does not reset a password', async () => {
    const invitation = (await ctx.api.post('/v1/member/invitation').send({ email: 'invitee-only@example.com', role: 'AGENT' }).expect(201)).body;
    await ctx.anonymous.post(`/v1/member/password-reset/${invitation.token}`).send({ password: NEW_PASSWORD }).expect(404);
    await ctx.anonymous.post(`/v1/member/invitation/${invitation.token}/accept`).send({ name: 'Still works', password: GOOD_PASSWORD }).expect(201);
  });

  it('counts requests against the sign-in limit of the address tried (429 after it)', async () => {
    const member = await addMember(ctx, 'AGENT');
    for (let i = 0; i < 5; i += 1) await ctx.anonymous.post('/v1/member/password-reset').send({ email: member.email }).expect(202);
    const limited = await ctx.anonymous.post('/v1/member/password-reset').send({ email: member.email }).expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Signing in to that address shares the count.
    await supertest(ctx.url).post('/v1/session').send({ email: member.email, password: GOOD_PASSWORD }).expect(429);
    await smtp.waitFor(5);
  });
});

describe('password reset without mail', () => {
  let plain: TestContext;
  beforeAll(async () => { plain = await createTestContext(); });
  afterAll(async () => { await plain?.close(); });

  it('answers 409 pointing to the keys CLI, and the invitation answer is unchanged', async () => {
    const member = await addMember(plain, 'OWNER');
    const refused = await plain.anonymous.post('/v1/member/password-reset').send({ email: member.email }).expect(409);
    expect(refused.body.message.join(' ')).toContain('npm run keys -- reset-password');
    expect((await plain.anonymous.get('/v1/session/methods').expect(200)).body).toEqual({ password: true, mail: false });
    const invitation = (await plain.api.post('/v1/member/invitation').send({ email: 'x@example.com', role: 'AGENT' }).expect(201)).body;
    expect(Object.keys(invitation).sort()).toEqual(['expiresAt', 'token', 'url']);
  });
});
