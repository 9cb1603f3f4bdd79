import { ConversationListingSchema, ConversationSchema, ErrorBodySchema, type ConversationSourceType } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let chatbotId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Support' }).expect(201)).body.id;
});
afterAll(async () => { await ctx?.close(); });

const hello = [{ text: 'Hello, what are your opening hours?', fromUser: true }, { text: 'We open at 9.', fromUser: false }];

async function save(body: Record<string, unknown>, api = ctx.api) {
  const res = await api.post('/v1/conversation').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ConversationSchema.parse(res.body);
}

/** Inserts a conversation at a chosen time and source (the API always records `app` and now). */
async function insertAt(createdAt: number, type: ConversationSourceType, chatbot = chatbotId) {
  const id = newId(createdAt);
  await ctx.database.db('conversations').insert({
    id, organisation_id: ctx.org.organisationId, chatbot_id: chatbot, created_at: createdAt, updated_at: createdAt,
    messages: JSON.stringify([{ text: `at ${createdAt}`, fromUser: true }]), source_type: type, source: JSON.stringify({ type }),
  });
  return id;
}

/** Messages as they are stored and answered: each with who sent it (issue 35). */
const sent = (messages: { text: string; fromUser: boolean }[]) => messages.map((m) => ({ ...m, sender: { type: m.fromUser ? 'visitor' : 'bot' } }));

describe('POST /v1/conversation', () => {
  it('creates a conversation with source app and the key\'s user', async () => {
    const before = Date.now();
    const conversation = await save({ chatbotId, messages: hello });
    expect(conversation).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/), user: ctx.org.userId, chatbot: chatbotId,
      createdAt: expect.any(Number), messages: sent(hello), source: { type: 'app' },
    });
    expect(conversation.createdAt).toBeGreaterThanOrEqual(before);
  });

  it('replaces the messages by default and with override: true', async () => {
    const { id } = await save({ chatbotId, messages: hello });
    const replaced = await save({ chatbotId, conversationId: id, messages: [{ text: 'Only this', fromUser: true }] });
    expect(replaced.messages).toEqual(sent([{ text: 'Only this', fromUser: true }]));
    const again = await save({ chatbotId, conversationId: id, override: true, messages: [{ text: 'Now this', fromUser: true }] });
    expect(again).toMatchObject({ id, messages: sent([{ text: 'Now this', fromUser: true }]), source: { type: 'app' }, user: ctx.org.userId });
  });

  it('appends with override: false and keeps the creation time', async () => {
    const created = await save({ chatbotId, messages: hello });
    const more = [{ text: 'And on Sundays?', fromUser: true }];
    const appended = await save({ chatbotId, conversationId: created.id, override: false, messages: more });
    expect(appended.messages).toEqual(sent([...hello, ...more]));
    expect(appended.createdAt).toBe(created.createdAt);
    const listed = (await ctx.api.get(`/v1/conversation/${chatbotId}`).expect(200)).body.conversations
      .find((item: { id: string }) => item.id === created.id);
    expect(listed.messages).toEqual(sent([...hello, ...more]));
  });

  it('keeps every message of concurrent appends', async () => {
    const { id } = await save({ chatbotId, messages: [] });
    await Promise.all(Array.from({ length: 8 }, (_, i) =>
      save({ chatbotId, conversationId: id, override: false, messages: [{ text: `m${i}`, fromUser: true }] })));
    const stored = await ctx.services.database.db('conversations').where({ id }).first();
    expect((stored.messages as { text: string }[]).map((m) => m.text).sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
  });

  it('answers 400 when an append would exceed 1000 messages', async () => {
    const full = Array.from({ length: 1000 }, (_, i) => ({ text: `${i}`, fromUser: i % 2 === 0 }));
    const { id } = await save({ chatbotId, messages: full });
    const res = await ctx.api.post('/v1/conversation').send({ chatbotId, conversationId: id, override: false, messages: [{ text: 'x', fromUser: true }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['messages must contain at most 1000 messages and 400000 characters of text in total after appending']);
  });

  it('answers 400 when an append would exceed 400,000 characters of text, and keeps what was saved', async () => {
    const long = (i: number) => ({ text: `${i}`.padEnd(32_000, 'x'), fromUser: i % 2 === 0 });
    const { id } = await save({ chatbotId, messages: Array.from({ length: 12 }, (_, i) => long(i)) });
    // 12 × 32,000 = 384,000: one more long message goes past the bound, a short one does not.
    const over = await ctx.api.post('/v1/conversation').send({ chatbotId, conversationId: id, override: false, messages: [long(12)] });
    expect(over.status).toBe(400);
    expect(over.body.message[0]).toContain('400000 characters');
    const fits = await ctx.api.post('/v1/conversation').send({ chatbotId, conversationId: id, override: false, messages: [{ text: 'still here', fromUser: true }] });
    expect(fits.status).toBe(201);
    expect(fits.body.messages).toHaveLength(13);
    const whole = await ctx.api.post('/v1/conversation').send({ chatbotId, messages: Array.from({ length: 13 }, (_, i) => long(i)) });
    expect(whole.status).toBe(400);
    expect(whole.body.message).toEqual(['messages must hold at most 400000 characters of text in all']);
  });

  it.each([
    [{ messages: hello }, 'chatbotId is required'],
    [{ chatbotId: 'nope', messages: hello }, 'chatbotId must be a 24-character lower-case hex id'],
    [{ chatbotId: ABSENT_ID }, 'messages is required'],
    [{ chatbotId: ABSENT_ID, messages: [{ text: 'x' }] }, 'messages[0].fromUser is required'],
    [{ chatbotId: ABSENT_ID, messages: [{ text: 'x', fromUser: true, extra: 1 }] }, 'property messages[0].extra should not exist'],
    [{ chatbotId: ABSENT_ID, messages: hello, override: 'yes' }, 'override must be a boolean'],
    [{ chatbotId: ABSENT_ID, messages: hello, conversationId: '123' }, 'conversationId must be a 24-character lower-case hex id'],
    [{ chatbotId: ABSENT_ID, messages: hello, foo: 1 }, 'property foo should not exist'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await ctx.api.post('/v1/conversation').send(body);
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).message).toContain(message);
  });

  it('answers 404 for an absent chatbot and for a conversation that is not the chatbot\'s', async () => {
    const absentChatbot = await ctx.api.post('/v1/conversation').send({ chatbotId: ABSENT_ID, messages: hello });
    expect(absentChatbot.status).toBe(404);
    expect(absentChatbot.body).toEqual({ statusCode: 404, message: [`chatbot ${ABSENT_ID} not found`], error: 'Not Found' });
    const absent = await ctx.api.post('/v1/conversation').send({ chatbotId, conversationId: ABSENT_ID, messages: hello });
    expect(absent.status).toBe(404);
    expect(absent.body.message).toEqual([`conversation ${ABSENT_ID} not found`]);
    const otherChatbot = (await ctx.api.post('/v1/chatbot').send({ name: 'Other' }).expect(201)).body.id;
    const { id } = await save({ chatbotId: otherChatbot, messages: hello });
    for (const override of [true, false]) {
      await ctx.api.post('/v1/conversation').send({ chatbotId, conversationId: id, override, messages: hello }).expect(404);
    }
  });

  it('keeps organisations apart: another organisation can neither save to nor extend our conversations', async () => {
    const other = await ctx.newOrganisation();
    const { id } = await save({ chatbotId, messages: hello });
    const foreignChatbot = await other.api.post('/v1/conversation').send({ chatbotId, messages: hello });
    expect(foreignChatbot.status).toBe(404);
    expect(foreignChatbot.body.message).toEqual([`chatbot ${chatbotId} not found`]);
    const theirChatbot = (await other.api.post('/v1/chatbot').send({ name: 'Theirs' }).expect(201)).body.id;
    await other.api.post('/v1/conversation').send({ chatbotId: theirChatbot, conversationId: id, messages: [] }).expect(404);
    await other.api.get(`/v1/conversation/${chatbotId}`).expect(404);
    const stored = await ctx.services.database.db('conversations').where({ id }).first();
    expect(stored.messages).toEqual(sent(hello));
  });
});

describe('GET /v1/conversation/{chatbotId}', () => {
  let listed: string;
  const t0 = Date.UTC(2024, 0, 1);
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    listed = (await ctx.api.post('/v1/chatbot').send({ name: 'Listed' }).expect(201)).body.id;
    const sources: ConversationSourceType[] = ['app', 'website', 'link', 'chatserver', 'automation'];
    for (const [i, type] of sources.entries()) ids[type] = await insertAt(t0 + i * 1000, type, listed);
  });

  const list = async (query: string) => {
    const res = await ctx.api.get(`/v1/conversation/${listed}${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ConversationListingSchema.parse(res.body);
  };
  const idsOf = (listing: { conversations: { id: string }[] }) => listing.conversations.map((c) => c.id);

  it('lists every conversation newest first with the listing fields', async () => {
    const chatbot = (await ctx.api.get(`/v1/chatbot/${listed}`).expect(200)).body;
    const before = Date.now();
    const listing = await list('');
    expect(listing).toMatchObject({ chatbotName: 'Listed', startInterval: '1970-01-01T00:00:00.000Z', createdAt: new Date(chatbot.createdAt).toISOString() });
    expect(Date.parse(listing.endInterval)).toBeGreaterThanOrEqual(before);
    expect(idsOf(listing)).toEqual([ids.automation, ids.chatserver, ids.link, ids.website, ids.app]);
    expect(listing.conversations[0]).toEqual({
      id: ids.automation, createdAt: t0 + 4000, source: { type: 'automation' },
      messages: [{ text: `at ${t0 + 4000}`, fromUser: true }], analysis: { status: 'PENDING' }, state: 'BOT',
    });
  });

  it('filters by an inclusive time range', async () => {
    const listing = await list(`?start=${t0 + 1000}&end=${t0 + 3000}`);
    expect(idsOf(listing)).toEqual([ids.chatserver, ids.link, ids.website]);
    expect(listing.startInterval).toBe(new Date(t0 + 1000).toISOString());
    expect(listing.endInterval).toBe(new Date(t0 + 3000).toISOString());
    expect(idsOf(await list(`?start=${t0 + 4000}`))).toEqual([ids.automation]);
    expect(idsOf(await list(`?end=${t0}`))).toEqual([ids.app]);
    expect(idsOf(await list(`?start=${t0 + 4001}&end=${t0 + 5000}`))).toEqual([]);
  });

  it.each(['app', 'website', 'link', 'chatserver', 'automation'] as const)('filters by the source %s', async (type) => {
    expect(idsOf(await list(`?sources=${type}`))).toEqual([ids[type]]);
  });

  it('combines repeated and comma-separated sources with the time range', async () => {
    expect(idsOf(await list('?sources=app&sources=link'))).toEqual([ids.link, ids.app]);
    expect(idsOf(await list('?sources=website,automation'))).toEqual([ids.automation, ids.website]);
    expect(idsOf(await list('?sources=app,website&sources=link'))).toEqual([ids.link, ids.website, ids.app]);
    expect(idsOf(await list(`?sources=app,website,link&start=${t0 + 1000}&end=${t0 + 2000}`))).toEqual([ids.link, ids.website]);
    expect(idsOf(await list('?sources='))).toHaveLength(5);
  });

  it('answers an empty listing for a chatbot without conversations', async () => {
    const empty = (await ctx.api.post('/v1/chatbot').send({ name: 'Quiet' }).expect(201)).body.id;
    const res = await ctx.api.get(`/v1/conversation/${empty}`).expect(200);
    expect(ConversationListingSchema.parse(res.body)).toMatchObject({ chatbotName: 'Quiet', conversations: [] });
  });

  it.each([
    ['?start=10&end=5', 'start must not be after end'],
    [`?start=${Date.now() + 3_600_000}`, 'start must not be in the future when end is omitted'],
    ['?start=1.5', 'start must be an integer number of Unix milliseconds'],
    ['?end=abc', 'end must be an integer number of Unix milliseconds'],
    ['?start=-1', 'start must be an integer number of Unix milliseconds'],
    ['?sources=email', 'sources[0] must be one of: app, website, link, chatserver, automation'],
    ['?sources=app,fax', 'sources[1] must be one of: app, website, link, chatserver, automation'],
    ['?page=2', 'property page should not exist'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await ctx.api.get(`/v1/conversation/${listed}${query}`);
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).message).toContain(message);
  });

  it('answers 400 for a malformed chatbot id and 404 for an absent one', async () => {
    await ctx.api.get('/v1/conversation/not-an-id').expect(400);
    await ctx.api.get(`/v1/conversation/${ABSENT_ID}`).expect(404);
  });
});
