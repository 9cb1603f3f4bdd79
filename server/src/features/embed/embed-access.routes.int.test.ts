import { EmbedConfigSchema, EmbedSessionSchema, ErrorBodySchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext({ env: { EMBED_SESSION_RATE_LIMIT: '3' } }); });
afterAll(async () => { await ctx?.close(); });

const PASSWORD = 'Tr0ub4dor&3-horse';
const ALLOWED = 'https://www.allowed.example';

async function createChatbot(body: Record<string, unknown> = {}): Promise<string> {
  const res = await ctx.api.post('/v1/chatbot').send({ name: 'Visitor bot', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const restricted = { websiteIntegration: { allowedDomains: ['*.allowed.example'], bubblePopupMessages: ['Hi there'] } };

describe('GET /v1/embed/{chatbotId}/config', () => {
  it('answers the appearance only: never the password, allowedDomains or resource ids', async () => {
    const id = await createChatbot({
      ...restricted, accessLevel: 'PRIVATE', password: PASSWORD, gradientColors: ['#111', '#222', '#333', '#444'], showBadge: true,
    });
    const res = await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', ALLOWED);
    expect(res.status).toBe(200);
    expect(EmbedConfigSchema.strict().parse(res.body)).toEqual({
      id, name: 'Visitor bot', welcomeMessage: 'Hi! How can I help you today?', accessLevel: 'PRIVATE',
      chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF',
      secondaryBackgroundColor: '#F6F7F8', gradientColors: ['#111', '#222', '#333', '#444'], showBadge: true, enabledEmoji: false,
      bubbleAlignment: 'right', bubblePopupMessages: ['Hi there'],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/allowed\.example|password|resources/);
  });

  it('answers 400 for a malformed id, 404 for an absent chatbot and 403 for a PROTECTED one', async () => {
    expect((await ctx.anonymous.get('/v1/embed/nope/config')).status).toBe(400);
    const absent = await ctx.anonymous.get(`/v1/embed/${ABSENT_ID}/config`);
    expect(absent.status).toBe(404);
    expect(ErrorBodySchema.parse(absent.body).message).toEqual([`chatbot ${ABSENT_ID} not found`]);
    const id = await createChatbot({ accessLevel: 'PROTECTED' });
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', ALLOWED)).status).toBe(403);
  });
});

describe('origin policy and CORS', () => {
  it('names the matching origin in CORS, never *, and varies on Origin', async () => {
    const id = await createChatbot(restricted);
    const res = await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', ALLOWED);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('refuses a foreign origin, the bare domain of a wildcard and a missing Origin with 403; the refused page may read why', async () => {
    const id = await createChatbot(restricted);
    for (const origin of ['https://evil.example', 'https://allowed.example', undefined]) {
      const request = ctx.anonymous.get(`/v1/embed/${id}/config`);
      const res = origin ? await request.set('Origin', origin) : await request;
      expect(res.status, String(origin)).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      if (origin) expect(res.body.message).toEqual([`this chatbot is not embeddable on ${new URL(origin).hostname}`]);
    }
    const unknown = await ctx.anonymous.get(`/v1/embed/${ABSENT_ID}/config`).set('Origin', 'https://evil.example');
    expect([unknown.status, unknown.headers['access-control-allow-origin']]).toEqual([404, 'https://evil.example']);
    const post = await ctx.anonymous.post(`/v1/embed/${id}/leads`).set('Origin', 'https://evil.example').send({ email: 'a@b.example' });
    expect([post.status, post.headers['access-control-allow-origin']]).toEqual([403, undefined]);
  });

  it('passes the owner\'s language, starter questions and lead offer to the widget (extensions)', async () => {
    const id = await createChatbot({ websiteIntegration: { locale: 'ar', suggestedQuestions: ['What are your hours?'], leadOfferAfterTurns: 3 } });
    const res = await ctx.anonymous.get(`/v1/embed/${id}/config`);
    expect(res.body).toMatchObject({ locale: 'ar', suggestedQuestions: ['What are your hours?'], leadOfferAfterTurns: 3 });
    const bad = await ctx.api.post('/v1/chatbot').send({ name: 'x', websiteIntegration: { locale: 'not a tag', suggestedQuestions: ['a', 'b', 'c', 'd', 'e', 'f'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual([
      'websiteIntegration.locale must be a language tag such as en, ar or pt-BR', 'websiteIntegration.suggestedQuestions must contain at most 5 questions',
    ]);
  });

  it('an update removes an extension sub-field with null (its default applies again), keeping the others', async () => {
    const id = await createChatbot({ websiteIntegration: { locale: 'ar', suggestedQuestions: ['Hours?'], leadOfferAfterTurns: 3, dailyVisitorMessages: 50 } });
    const res = await ctx.api.put(`/v1/chatbot/${id}`).send({ websiteIntegration: { locale: null, leadOfferAfterTurns: null, dailyVisitorMessages: 80 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.websiteIntegration).not.toHaveProperty('locale');
    expect(res.body.websiteIntegration).not.toHaveProperty('leadOfferAfterTurns');
    expect(res.body.websiteIntegration).toMatchObject({ suggestedQuestions: ['Hours?'], dailyVisitorMessages: 80 });
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`)).body).not.toHaveProperty('locale');
    expect((await ctx.api.put(`/v1/chatbot/${id}`).send({ websiteIntegration: { allowedDomains: null } })).status).toBe(400);
  });

  it('passes the brand colour to the widget, checks it as a colour and removes it with null', async () => {
    const id = await createChatbot({ websiteIntegration: { brandColor: '#7C2D12' } });
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`)).body).toMatchObject({ brandColor: '#7C2D12' });
    const bad = await ctx.api.put(`/v1/chatbot/${id}`).send({ websiteIntegration: { brandColor: 'red' } });
    expect(bad.body.message).toEqual(['websiteIntegration.brandColor must be a hex color (#RGB or #RRGGBB)']);
    await ctx.api.put(`/v1/chatbot/${id}`).send({ websiteIntegration: { brandColor: null } }).expect(200);
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`)).body).not.toHaveProperty('brandColor');
  });

  it('warns in the chatbot response about a gradient whose stops it adjusts for contrast', async () => {
    const res = await ctx.api.post('/v1/chatbot').send({ name: 'Sunset', gradientColors: ['#4F46E5', '#7C3AED', '#DB2777', '#F59E0B'] });
    expect(res.body.warnings).toEqual([expect.objectContaining({ field: 'gradientColors', textColor: '#ffffff', adjustedTo: ['#4F46E5', '#7C3AED', '#DB2777', '#a36907'] })]);
    const plain = await ctx.api.post('/v1/chatbot').send({ name: 'Plain', userMessageColor: '#F28F3B' });
    expect(plain.body.warnings).toBeUndefined();
  });

  it('answers preflights of allowed origins with 204 and refuses others', async () => {
    const id = await createChatbot(restricted);
    const ok = await ctx.anonymous.options(`/v1/embed/${id}/chat-stream`).set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST');
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(ok.headers['access-control-allow-headers']).toMatch(/Authorization/);
    const refused = await ctx.anonymous.options(`/v1/embed/${id}/chat-stream`).set('Origin', 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('always lets the service\'s own chat page in', async () => {
    const id = await createChatbot(restricted);
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', ctx.url)).status).toBe(200);
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
  });

  it('lets any origin in when the chatbot lists no domains', async () => {
    const id = await createChatbot();
    const res = await ctx.anonymous.get(`/v1/embed/${id}/config`).set('Origin', 'https://anywhere.org');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://anywhere.org');
    expect((await ctx.anonymous.get(`/v1/embed/${id}/config`)).status).toBe(200);
  });
});

describe('POST /v1/embed/{chatbotId}/session', () => {
  const chat = (id: string, token?: string) => {
    const request = ctx.anonymous.post(`/v1/embed/${id}/chat-stream`).set('Origin', ALLOWED);
    return (token ? request.set('Authorization', `Bearer ${token}`) : request).send({ conversation: [{ text: 'Hello?', fromUser: true }] });
  };

  it('exchanges the right password for a token that opens the PRIVATE chatbot', async () => {
    const id = await createChatbot({ ...restricted, accessLevel: 'PRIVATE', password: PASSWORD });
    expect((await chat(id)).status).toBe(401);
    const res = await ctx.anonymous.post(`/v1/embed/${id}/session`).set('Origin', ALLOWED).send({ password: PASSWORD });
    expect(res.status).toBe(201);
    const session = EmbedSessionSchema.parse(res.body);
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 60 * 60_000);
    const answered = await chat(id, session.token);
    expect(answered.status).toBe(201);
    expect(answered.headers['content-type']).toMatch(/text\/event-stream/);
    expect((await chat(id, `${session.token.slice(0, -2)}xx`)).status).toBe(401);
  });

  it('answers 401 for a wrong password and 400 for a PUBLIC chatbot', async () => {
    const id = await createChatbot({ accessLevel: 'PRIVATE', password: PASSWORD });
    const wrong = await ctx.anonymous.post(`/v1/embed/${id}/session`).send({ password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toEqual(['the password is wrong']);
    const publicId = await createChatbot();
    expect((await ctx.anonymous.post(`/v1/embed/${publicId}/session`).send({ password: PASSWORD })).status).toBe(400);
  });

  it('does not accept a session of one chatbot on another', async () => {
    const first = await createChatbot({ accessLevel: 'PRIVATE', password: PASSWORD });
    const second = await createChatbot({ accessLevel: 'PRIVATE', password: PASSWORD });
    const { token } = (await ctx.anonymous.post(`/v1/embed/${first}/session`).send({ password: PASSWORD })).body;
    expect((await chat(second, token)).status).toBe(401);
  });

  it('ends sessions when the owner changes the password', async () => {
    const id = await createChatbot({ accessLevel: 'PRIVATE', password: PASSWORD });
    const { token } = (await ctx.anonymous.post(`/v1/embed/${id}/session`).send({ password: PASSWORD })).body;
    expect((await ctx.api.put(`/v1/chatbot/${id}`).send({ password: 'N3w-password-42!' })).status).toBe(200);
    expect((await chat(id, token)).status).toBe(401);
  });

  it('keeps the generated secret in the settings table', async () => {
    const rows = await ctx.database.db('settings').where({ key: 'embed_session_secret' });
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0].value, 'base64url')).toHaveLength(32);
  });

  it('rate limits password attempts per visitor with a bodiless 429', async () => {
    const id = await createChatbot({ ...restricted, accessLevel: 'PRIVATE', password: PASSWORD });
    const attempt = () => ctx.anonymous.post(`/v1/embed/${id}/session`).set('Origin', ALLOWED).send({ password: 'guess-guess' });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.text).toBe('');
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.headers['access-control-allow-origin']).toBe(ALLOWED);
  });
});
