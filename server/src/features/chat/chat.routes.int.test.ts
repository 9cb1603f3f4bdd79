import { ChatResponseSchema, ErrorBodySchema, StreamingEventSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { insertChunkedResource, joinDeltas, postEventStream } from './chat-test-fixtures.js';

let ctx: TestContext;
let shippingId: string;
let companyId: string;
let chatbotId: string;

const SHIPPING = [
  { content: 'Our warehouse is in Leeds. Standard parcels ship within 2 working days of the order. Express delivery costs 9 euros and arrives the next day.', provenance: { page: 2 } },
  { content: 'Returns are free for 30 days. Refunds reach your account within 5 days of the return arriving.', provenance: { page: 3 } },
];
const COMPANY = ['Parley Ltd. was founded in 2014 by Ada Byrne in Dublin. The company employs 40 people.'];
const ask = (text: string) => [{ text, fromUser: true }];

beforeAll(async () => {
  ctx = await createTestContext();
  const { db } = ctx.database;
  shippingId = await insertChunkedResource(db, ctx.org.organisationId, ctx.org.userId, 'shipping.pdf', SHIPPING, 'PDF');
  companyId = await insertChunkedResource(db, ctx.org.organisationId, ctx.org.userId, 'about.txt', COMPANY);
  const created = await ctx.api.post('/v1/chatbot').send({ name: 'Shop', resourceIds: [shippingId, companyId] });
  expect(created.status).toBe(201);
  chatbotId = created.body.id;
});
afterAll(async () => { await ctx?.close(); });

const stream = (path: string, body: unknown, apiKey: string | undefined = ctx.org.apiKey) => postEventStream(`${ctx.url}${path}`, apiKey, body);

describe('POST /v1/chatbot/chat', () => {
  it('answers 201 with the text from the chatbot\'s resources, its source beside the text (no "Source:" line)', async () => {
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: ask('How much does express delivery cost?') });
    expect(res.status).toBe(201);
    expect(ChatResponseSchema.parse(res.body)).toEqual({
      text: 'Express delivery costs 9 euros and arrives the next day.',
      sources: [{ resourceId: shippingId, title: 'shipping.pdf', page: 2, snippet: 'Express delivery costs 9 euros and arrives the next day.' }],
    });
  });

  it('answers from every resource of the chatbot', async () => {
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: ask('Who founded Parley?') });
    expect(res.body.text).toContain('founded in 2014 by Ada Byrne');
    expect(res.body.text).not.toContain('Source:');
    expect(res.body.sources).toEqual([{ resourceId: companyId, title: 'about.txt', snippet: expect.stringContaining('founded in 2014 by Ada Byrne') }]);
  });
});

describe('POST /v1/chatbot/chat-stream', () => {
  it('streams 201 SSE: partialResponse deltas, then streamEnd, concatenating to the plain answer', async () => {
    const question = ask('When are refunds paid after a return?');
    const plain = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: question });
    const result = await stream('/v1/chatbot/chat-stream', { chatbotId, conversation: question });
    expect(result.status).toBe(201);
    expect(result.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(result.headers.get('x-accel-buffering')).toBe('no');
    expect(result.headers.get('cache-control')).toContain('no-cache');
    for (const event of result.events) expect(StreamingEventSchema.safeParse(event).success).toBe(true);
    expect(result.events.length).toBeGreaterThan(3);
    expect(result.events.slice(0, -1).every((event) => event.type === 'partialResponse')).toBe(true);
    // streamEnd carries what the plain answer carries beside its text (extension).
    expect(result.events.at(-1)).toEqual({ type: 'streamEnd', data: { sources: plain.body.sources } });
    expect(joinDeltas(result.events)).toBe(plain.body.text);
    expect(plain.body.text).toContain('Refunds reach your account within 5 days');
    expect(plain.body.text).not.toContain('Source:');
    expect(plain.body.sources).toEqual([{ resourceId: shippingId, title: 'shipping.pdf', page: 3, snippet: expect.stringContaining('Refunds reach your account') }]);
  });

  it('frames every event as one data line followed by a blank line', async () => {
    const result = await stream('/v1/chatbot/chat-stream', { chatbotId, conversation: ask('Where is the warehouse?') });
    const frames = result.raw.split('\n\n');
    expect(frames.at(-1)).toBe('');
    for (const frame of frames.slice(0, -1)) expect(frame).toMatch(/^data: \{.*\}$/);
    expect(frames.length - 1).toBe(result.events.length);
  });

  it('answers errors found before streaming as ordinary JSON (400, 404)', async () => {
    const invalid = await stream('/v1/chatbot/chat-stream', { chatbotId, conversation: [] });
    expect(invalid.status).toBe(400);
    expect(ErrorBodySchema.parse(invalid.json).message).toContain('conversation must contain at least 1 message');
    const absent = await stream('/v1/chatbot/chat-stream', { chatbotId: ABSENT_ID, conversation: ask('Hi?') });
    expect(absent.status).toBe(404);
    expect(absent.json).toEqual({ statusCode: 404, message: [`chatbot ${ABSENT_ID} not found`], error: 'Not Found' });
  });
});

describe('POST /v1/resource/chat and /v1/resource/chat-stream', () => {
  it('answers from that one resource only', async () => {
    const res = await ctx.api.post('/v1/resource/chat').send({ resourceId: companyId, conversation: ask('How many people does the company employ?') });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ text: 'The company employs 40 people.', sources: [{ resourceId: companyId, title: 'about.txt', snippet: 'The company employs 40 people.' }] });
    const other = await ctx.api.post('/v1/resource/chat').send({ resourceId: companyId, conversation: ask('How much does express delivery cost?') });
    expect(other.body.text).not.toContain('9 euros');
  });

  it('streams the same answer as the plain endpoint', async () => {
    const body = { resourceId: shippingId, conversation: ask('How long are returns free?') };
    const plain = await ctx.api.post('/v1/resource/chat').send(body);
    const result = await stream('/v1/resource/chat-stream', body);
    expect(result.status).toBe(201);
    expect(result.events.at(-1)).toEqual({ type: 'streamEnd', data: { sources: plain.body.sources } });
    expect(joinDeltas(result.events)).toBe(plain.body.text);
    expect(plain.body.text).toContain('Returns are free for 30 days.');
    expect(plain.body.sources).toEqual([{ resourceId: shippingId, title: 'shipping.pdf', page: 3, snippet: expect.stringContaining('Returns are free for 30 days.') }]);
  });
});

describe('chat validation and tenancy', () => {
  const tooMany = Array.from({ length: 101 }, (_, i) => ({ text: `q${i}`, fromUser: true }));
  it.each([
    ['/v1/chatbot/chat', () => ({ conversation: ask('Hi?') }), 'chatbotId is required'],
    ['/v1/chatbot/chat', () => ({ chatbotId: 'nope', conversation: ask('Hi?') }), 'chatbotId must be a 24-character lower-case hex id'],
    ['/v1/chatbot/chat', () => ({ chatbotId, conversation: [] }), 'conversation must contain at least 1 message'],
    ['/v1/chatbot/chat', () => ({ chatbotId, conversation: tooMany }), 'conversation must contain at most 100 messages'],
    ['/v1/chatbot/chat', () => ({ chatbotId, conversation: [{ text: 'Hi', fromUser: true }, { text: 'Hello', fromUser: false }] }), 'conversation must end with a message from the user'],
    ['/v1/chatbot/chat', () => ({ chatbotId, conversation: [{ text: 'Hi', fromUser: 'yes' }] }), 'conversation[0].fromUser must be a boolean'],
    ['/v1/chatbot/chat', () => ({ chatbotId, conversation: ask('Hi?'), stream: true }), 'property stream should not exist'],
    ['/v1/chatbot/chat-stream', () => ({ chatbotId, conversation: [{ text: 'Hello', fromUser: false }] }), 'conversation must end with a message from the user'],
    ['/v1/resource/chat', () => ({ resourceId: 'x', conversation: ask('Hi?') }), 'resourceId must be a 24-character lower-case hex id'],
    ['/v1/resource/chat-stream', () => ({ resourceId: shippingId }), 'conversation is required'],
  ])('%s answers 400 naming the field: %s', async (path, body, message) => {
    const res = await ctx.api.post(path).send(body());
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).message).toContain(message);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await ctx.api.post('/v1/chatbot/chat').set('content-type', 'application/json').send('{"chatbotId":');
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['body must be valid JSON']);
  });

  it.each(['/v1/chatbot/chat', '/v1/chatbot/chat-stream', '/v1/resource/chat', '/v1/resource/chat-stream'])('%s answers 401 without a key', async (path) => {
    const res = await ctx.anonymous.post(path).send({ chatbotId, resourceId: shippingId, conversation: ask('Hi?') });
    expect(res.status).toBe(401);
  });

  it('answers 404 for an absent chatbot or resource, and for another organisation\'s', async () => {
    const other = await ctx.newOrganisation();
    const otherResource = await insertChunkedResource(ctx.database.db, other.organisationId, other.userId, 'secret.txt', ['Secret plans.']);
    const otherChatbot = (await other.api.post('/v1/chatbot').send({ name: 'Theirs', resourceIds: [otherResource] })).body.id as string;
    for (const [path, body, what] of [
      ['/v1/chatbot/chat', { chatbotId: ABSENT_ID }, `chatbot ${ABSENT_ID}`],
      ['/v1/chatbot/chat-stream', { chatbotId: otherChatbot }, `chatbot ${otherChatbot}`],
      ['/v1/resource/chat', { resourceId: otherResource }, `resource ${otherResource}`],
      ['/v1/resource/chat-stream', { resourceId: ABSENT_ID }, `resource ${ABSENT_ID}`],
    ] as const) {
      const res = await ctx.api.post(path).send({ ...body, conversation: ask('What are the secret plans?') });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: [`${what} not found`], error: 'Not Found' });
    }
  });
});

describe('monthly message quota (402)', () => {
  it('counts every chat, plain or streamed, chatbot or resource, and answers 402 once the month is spent', async () => {
    const org = await ctx.newOrganisation({ monthlyMessages: 3 });
    const resourceId = await insertChunkedResource(ctx.database.db, org.organisationId, org.userId, 'a.txt', ['Apples are red.']);
    const bot = (await org.api.post('/v1/chatbot').send({ name: 'Quota', resourceIds: [resourceId] })).body.id as string;
    const question = ask('What colour are apples?');
    expect((await org.api.post('/v1/chatbot/chat').send({ chatbotId: bot, conversation: question })).status).toBe(201);
    expect((await postEventStream(`${ctx.url}/v1/chatbot/chat-stream`, org.apiKey, { chatbotId: bot, conversation: question })).status).toBe(201);
    // A 404 is found before the message is counted.
    expect((await org.api.post('/v1/chatbot/chat').send({ chatbotId: ABSENT_ID, conversation: question })).status).toBe(404);
    expect((await org.api.post('/v1/resource/chat').send({ resourceId, conversation: question })).status).toBe(201);
    for (const path of ['/v1/chatbot/chat', '/v1/resource/chat']) {
      const res = await org.api.post(path).send({ chatbotId: path.includes('chatbot') ? bot : undefined, resourceId: path.includes('resource') ? resourceId : undefined, conversation: question });
      expect(res.status, path).toBe(402);
      expect(ErrorBodySchema.parse(res.body)).toEqual({ statusCode: 402, message: ["the plan's monthly limit of 3 chat messages is reached"], error: 'Payment Required' });
    }
    const streamed = await postEventStream(`${ctx.url}/v1/chatbot/chat-stream`, org.apiKey, { chatbotId: bot, conversation: question });
    expect(streamed.status).toBe(402);
    expect(streamed.json).toMatchObject({ statusCode: 402, error: 'Payment Required' });
    expect(await ctx.services.usage.messagesThisMonth(org.organisationId)).toBe(3);
  });

  it('never lets concurrent requests overshoot the limit', async () => {
    const org = await ctx.newOrganisation({ monthlyMessages: 5 });
    const resourceId = await insertChunkedResource(ctx.database.db, org.organisationId, org.userId, 'a.txt', ['Pears are green.']);
    const statuses = await Promise.all(Array.from({ length: 14 }, () => org.api.post('/v1/resource/chat')
      .send({ resourceId, conversation: ask('What colour are pears?') }).then((res) => res.status)));
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(9);
    expect(await ctx.services.usage.messagesThisMonth(org.organisationId)).toBe(5);
  });
});
