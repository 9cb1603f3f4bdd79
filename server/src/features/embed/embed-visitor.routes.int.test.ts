import { EmbedConversationSchema, LeadSchema, decodeEvents } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChunkedResource } from '../chat/chat-test-fixtures.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let resourceId: string;
beforeAll(async () => {
  ctx = await createTestContext({ env: { EMBED_VISITOR_RATE_LIMIT: '25' } });
  resourceId = await insertChunkedResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'Shop guide', [
    'On Saturdays the shop opens at 10am and closes at 4pm.',
    'Returns are accepted within 30 days of purchase with a receipt.',
  ]);
});
afterAll(async () => { await ctx?.close(); });

const SITE = 'https://shop.example';

async function createChatbot(body: Record<string, unknown> = {}): Promise<string> {
  const res = await ctx.api.post('/v1/chatbot').send({ name: 'Shop bot', resourceIds: [resourceId], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const post = (id: string, path: string, body: unknown, origin = SITE) =>
  ctx.anonymous.post(`/v1/embed/${id}/${path}`).set('Origin', origin).send(body as object);

describe('POST /v1/embed/{chatbotId}/chat-stream', () => {
  it('streams the answer from the chatbot\'s resources as SSE deltas ending with streamEnd', async () => {
    const id = await createChatbot();
    const res = await post(id, 'chat-stream', { conversation: [{ text: 'When do you open on Saturdays?', fromUser: true }] });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const events = decodeEvents(res.text);
    // The answer's metadata (extension) passes through the embed API to the widget's source chips.
    const end = events.at(-1);
    expect(end?.type).toBe('streamEnd');
    expect(end?.type === 'streamEnd' && end.data?.sources?.[0]).toMatchObject({ resourceId, title: 'Shop guide' });
    const answer = events.map((e) => (e.type === 'partialResponse' ? e.data.text : '')).join('');
    expect(answer).toContain('10am');
  });

  it('answers 400 in the error shape before streaming for a bad conversation', async () => {
    const id = await createChatbot();
    const res = await post(id, 'chat-stream', { conversation: [{ text: 'Hi', fromUser: false }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['conversation must end with a message from the user']);
    expect((await post(id, 'chat-stream', { conversation: [{ text: 'Hi', fromUser: true }], chatbotId: id })).status).toBe(400);
  });

  it('counts each visitor question against the owner\'s monthly messages (402 when the visitors\' 80% share is spent)', async () => {
    const owner = await ctx.newOrganisation({ monthlyMessages: 5 });
    const created = await owner.api.post('/v1/chatbot').send({ name: 'Small plan' });
    const ask = () => post(created.body.id, 'chat-stream', { conversation: [{ text: 'Hello?', fromUser: true }] });
    for (let question = 0; question < 4; question++) expect((await ask()).status).toBe(201);
    const spent = await ask();
    expect(spent.status).toBe(402);
    expect(spent.headers['access-control-allow-origin']).toBe(SITE);
  });
});

describe('POST /v1/embed/{chatbotId}/conversation', () => {
  const messages = [{ text: 'Can I return things?', fromUser: true }, { text: 'Within 30 days.', fromUser: false }];

  it('creates a website conversation with a visitor token that the owner lists', async () => {
    const id = await createChatbot();
    const res = await post(id, 'conversation', { messages });
    expect(res.status).toBe(201);
    const saved = EmbedConversationSchema.parse(res.body);
    expect(saved).toMatchObject({ chatbot: id, messages, source: { type: 'website' } });
    expect(saved.user).toBeUndefined();
    const listing = await ctx.api.get(`/v1/conversation/${id}?sources=website`);
    expect(listing.body.conversations.map((c: { id: string }) => c.id)).toEqual([saved.id]);
  });

  it('lets a visitor extend only its own conversation', async () => {
    const id = await createChatbot();
    const first = EmbedConversationSchema.parse((await post(id, 'conversation', { messages })).body);
    const more = [...messages, { text: 'Thanks!', fromUser: true }];
    const extended = await post(id, 'conversation', { messages: more, conversationId: first.id, visitorToken: first.visitorToken });
    expect(extended.status).toBe(201);
    expect(extended.body).toMatchObject({ id: first.id, messages: more, visitorToken: first.visitorToken });
    expect((await post(id, 'conversation', { messages: more, conversationId: first.id, visitorToken: 'someone-else' })).status).toBe(404);
    const noToken = await post(id, 'conversation', { messages: more, conversationId: first.id });
    expect(noToken.status).toBe(400);
    expect(noToken.body.message).toEqual(['visitorToken is required with conversationId']);
  });

  it('saves conversations from the service\'s own chat page with source link', async () => {
    const id = await createChatbot({ websiteIntegration: { allowedDomains: ['shop.example'] } });
    const res = await post(id, 'conversation', { messages }, ctx.url);
    expect(res.status).toBe(201);
    expect(res.body.source).toEqual({ type: 'link' });
  });
});

describe('POST /v1/embed/{chatbotId}/leads', () => {
  it('stores the lead for the owner to list', async () => {
    const id = await createChatbot();
    const res = await post(id, 'leads', { name: 'Ada', email: 'ada@example.com', phone: '+44 20 7946 0958' });
    expect(res.status).toBe(201);
    expect(LeadSchema.parse(res.body)).toMatchObject({ name: 'Ada', email: 'ada@example.com', phone: '+44 20 7946 0958' });
    const listing = await ctx.api.get(`/v1/lead/${id}`);
    expect(listing.body.leads).toEqual([res.body]);
  });

  it('answers 400 without an email or a phone, or with a bad email', async () => {
    const id = await createChatbot();
    expect((await post(id, 'leads', { name: 'Ada' })).status).toBe(400);
    const bad = await post(id, 'leads', { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['email must be an email address']);
  });

  it('needs a session for a PRIVATE chatbot', async () => {
    const id = await createChatbot({ accessLevel: 'PRIVATE', password: 'Tr0ub4dor&3-horse' });
    expect((await post(id, 'leads', { email: 'ada@example.com' })).status).toBe(401);
  });
});

describe('per-visitor rate limit', () => {
  it('answers 429 with Retry-After once a visitor passes its limit on one chatbot, and not on another', async () => {
    const id = await createChatbot();
    const other = await createChatbot();
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) statuses.push((await post(id, 'leads', { email: `v${i}@example.com` })).status);
    expect(statuses.slice(0, 25).every((s) => s === 201)).toBe(true);
    expect(statuses[25]).toBe(429);
    expect((await post(other, 'leads', { email: 'fresh@example.com' })).status).toBe(201);
  });
});
