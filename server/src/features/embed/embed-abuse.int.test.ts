import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

// Issue 14, item 5: one anonymous client cannot spend an owner's allowance or reset its limits.
const QUESTION = { conversation: [{ text: 'What are your opening hours?', fromUser: true }] };
const PASSWORD = 'Tr0ub4dor&3-horse';

async function createChatbot(ctx: TestContext, body: Record<string, unknown> = {}): Promise<string> {
  const res = await ctx.api.post('/v1/chatbot').send({ name: 'Public bot', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

function chat(ctx: TestContext, chatbotId: string, forwardedFor?: string, text = QUESTION.conversation[0]!.text) {
  const req = ctx.anonymous.post(`/v1/embed/${chatbotId}/chat-stream`).send({ conversation: [{ text, fromUser: true }] });
  return forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req;
}

function guess(ctx: TestContext, chatbotId: string, forwardedFor: string) {
  return ctx.anonymous.post(`/v1/embed/${chatbotId}/session`).set('X-Forwarded-For', forwardedFor).send({ password: 'Wrong-guess-1!' });
}

describe('without TRUST_PROXY', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { EMBED_VISITOR_DAILY_MESSAGES: '3', EMBED_SESSION_RATE_LIMIT: '3' } }); });
  afterAll(async () => { await ctx?.close(); });

  it('one visitor gets its daily share of messages; a new conversation or a forged X-Forwarded-For does not reset it', async () => {
    const id = await createChatbot(ctx);
    for (let turn = 0; turn < 3; turn++) expect((await chat(ctx, id, undefined, `Question ${turn}?`)).status).toBe(201);
    for (const forged of ['203.0.113.1', '198.51.100.2, 203.0.113.3', '::1']) {
      const res = await chat(ctx, id, forged, 'A brand new conversation?');
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
    }
    // Another chatbot's visitors are counted apart.
    expect((await chat(ctx, await createChatbot(ctx))).status).toBe(201);
  });

  it('password guesses stay limited whatever X-Forwarded-For says', async () => {
    const id = await createChatbot(ctx, { accessLevel: 'PRIVATE', password: PASSWORD });
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await guess(ctx, id, `192.0.2.${attempt}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });
});

describe('with TRUST_PROXY as a hop count', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '1', EMBED_VISITOR_DAILY_MESSAGES: '3', EMBED_SESSION_RATE_LIMIT: '3' } });
  });
  afterAll(async () => { await ctx?.close(); });

  it('counts the address the proxy saw: forged entries to its left change nothing', async () => {
    const id = await createChatbot(ctx, { accessLevel: 'PRIVATE', password: PASSWORD });
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await guess(ctx, id, `10.9.8.${attempt}, 198.51.100.7`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // A different client behind the proxy is another visitor.
    expect((await guess(ctx, id, '198.51.100.8')).status).toBe(401);
  });

  it('stops all visitors together at the chatbot\'s own daily budget', async () => {
    const id = await createChatbot(ctx, { websiteIntegration: { dailyVisitorMessages: 2 } });
    expect((await chat(ctx, id, '198.51.100.20')).status).toBe(201);
    expect((await chat(ctx, id, '198.51.100.21')).status).toBe(201);
    expect((await chat(ctx, id, '198.51.100.22')).status).toBe(429);
    expect((await ctx.api.get(`/v1/embed/${id}/config`)).body).not.toHaveProperty('dailyVisitorMessages');
  });
});

describe('with TRUST_PROXY as addresses and a monthly plan', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '127.0.0.1', EMBED_SESSION_RATE_LIMIT: '2' }, plan: { monthlyMessages: 10 } });
  });
  afterAll(async () => { await ctx?.close(); });

  it('visitors spend at most their share of the month; the owner\'s API keeps the rest', async () => {
    const id = await createChatbot(ctx);
    const statuses = [];
    for (let visitor = 0; visitor < 10; visitor++) statuses.push((await chat(ctx, id, `203.0.113.${visitor + 10}`)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 402, 402]);
    const owner = () => ctx.api.post('/v1/chatbot/chat').send({ chatbotId: id, ...QUESTION });
    expect((await owner()).status).toBe(201);
    expect((await owner()).status).toBe(201);
    expect((await owner()).status).toBe(402);
  });

  it('counts the rightmost untrusted address: a forged chain does not reset password attempts', async () => {
    const id = await createChatbot(ctx, { accessLevel: 'PRIVATE', password: PASSWORD });
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await guess(ctx, id, `1.2.3.${attempt}, 198.51.100.9`)).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

// Round 3: the chatbot-wide limits used to refuse every visitor once a few addresses, each within
// its own limits, had filled them (10 addresses at 60 a minute fill the chatbot's 600).
describe('chatbot-wide limits spare visitors already in a conversation', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '1', EMBED_CHATBOT_RATE_LIMIT: '4', EMBED_VISITOR_DAILY_MESSAGES: '4' } });
  });
  afterAll(async () => { await ctx?.close(); });

  /** A visitor's first question and its saved conversation (the widget's flow). */
  async function startConversation(id: string, address: string) {
    expect((await chat(ctx, id, address)).status).toBe(201);
    const saved = await ctx.anonymous.post(`/v1/embed/${id}/conversation`).set('X-Forwarded-For', address)
      .send({ messages: [{ text: 'What are your opening hours?', fromUser: true }, { text: 'Nine to five.', fromUser: false }] }).expect(201);
    return { conversationId: saved.body.id as string, visitorToken: saved.body.visitorToken as string };
  }

  function continueChat(id: string, address: string, saved: { conversationId: string; visitorToken: string }) {
    return ctx.anonymous.post(`/v1/embed/${id}/chat-stream`).set('X-Forwarded-For', address)
      .send({ conversation: [{ text: 'And on Sundays?', fromUser: true }], ...saved });
  }

  it('refuses new visitors at the chatbot\'s per-minute limit but keeps serving a visitor in a conversation', async () => {
    const id = await createChatbot(ctx);
    const saved = await startConversation(id, '198.51.100.30');
    // Other addresses, each within its own limits, fill the chatbot's minute.
    const statuses = [];
    for (let visitor = 0; visitor < 4; visitor++) statuses.push((await chat(ctx, id, `203.0.113.${visitor + 30}`)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await chat(ctx, id, '203.0.113.99')).status).toBe(429);
    // The visitor who was already talking goes on, up to its own daily messages (4).
    expect((await continueChat(id, '198.51.100.30', saved)).status).toBe(201);
    expect((await continueChat(id, '198.51.100.30', saved)).status).toBe(201);
    expect((await continueChat(id, '198.51.100.30', saved)).status).toBe(201);
    expect((await continueChat(id, '198.51.100.30', saved)).status).toBe(429);
    // A wrong token, or another visitor's conversation from elsewhere with a guessed token, is a new visitor.
    expect((await continueChat(id, '203.0.113.98', { ...saved, visitorToken: 'x'.repeat(43) })).status).toBe(429);
    // A new visitor is still refused.
    expect((await chat(ctx, id, '203.0.113.97')).status).toBe(429);
  });

  it('refuses new visitors once the chatbot\'s daily budget is spent but keeps serving a visitor in a conversation', async () => {
    const id = await createChatbot(ctx, { websiteIntegration: { dailyVisitorMessages: 3 } });
    const saved = await startConversation(id, '198.51.100.40');
    expect((await chat(ctx, id, '203.0.113.40')).status).toBe(201);
    expect((await chat(ctx, id, '203.0.113.41')).status).toBe(201);
    expect((await chat(ctx, id, '203.0.113.42')).status).toBe(429);
    const continued = await continueChat(id, '198.51.100.40', saved);
    expect(continued.status).toBe(201);
    // The visitor's own limits are what it sees in the headers, not the chatbot's.
    expect(continued.headers['ratelimit-limit']).toBe('4');
    // A conversation of another chatbot does not count as one of this chatbot.
    const other = await createChatbot(ctx);
    const elsewhere = await startConversation(other, '198.51.100.41');
    expect((await continueChat(id, '198.51.100.41', elsewhere)).status).toBe(429);
  });
});
