import { ConversationStatusSchema, decodeEvents, InboxPageSchema, type LiveEvent } from '@parley/shared';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { openLiveStream, type LiveStreamClient } from './live-stream.test-support.js';

let ctx: TestContext;
const SITE = 'https://shop.example';
const streams: LiveStreamClient[] = [];

beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => {
  for (const stream of streams) stream.close();
  await ctx?.close();
});

async function createChatbot(api = ctx.api, body: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/v1/chatbot').send({ name: 'Shop bot', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const embed = (chatbotId: string, path: string, body: unknown) =>
  ctx.anonymous.post(`/v1/embed/${chatbotId}/${path}`).set('Origin', SITE).send(body as object);

/** A visitor's saved conversation: its id and secret. */
async function visitorConversation(chatbotId: string): Promise<{ conversationId: string; visitorToken: string }> {
  const res = await embed(chatbotId, 'conversation', { messages: [{ text: 'Hello', fromUser: true }, { text: 'Hi! How can I help?', fromUser: false }] });
  expect(res.status).toBe(201);
  return { conversationId: res.body.id, visitorToken: res.body.visitorToken };
}

async function track(stream: Promise<LiveStreamClient>): Promise<LiveStreamClient> {
  const opened = await stream;
  streams.push(opened);
  return opened;
}
const inboxStream = (apiKey = ctx.org.apiKey, headers: Record<string, string> = {}) =>
  track(openLiveStream(`${ctx.url}/v1/inbox/events`, { 'x-api-key': apiKey, ...headers }));
const visitorStream = (chatbotId: string, saved: { conversationId: string; visitorToken: string }, headers: Record<string, string> = {}) =>
  track(openLiveStream(`${ctx.url}/v1/embed/${chatbotId}/conversation/${saved.conversationId}/events`, {
    origin: SITE, 'x-visitor-token': saved.visitorToken, ...headers,
  }));

const ask = (chatbotId: string, saved: { conversationId: string; visitorToken: string }, text: string) =>
  embed(chatbotId, 'chat-stream', { conversation: [{ text, fromUser: true }], ...saved });

const isMessage = (text: string) => ({ event }: { event: LiveEvent }) => event.type === 'message' && event.message.text === text;
const isState = (state: string) => ({ event }: { event: LiveEvent }) => event.type === 'state' && event.state === state;

describe('live handoff', () => {
  it('offers the lead form when nobody is available, and WAITING once the team watches the inbox', async () => {
    const other = await ctx.newOrganisation();
    const chatbotId = await createChatbot(other.api);
    const saved = await visitorConversation(chatbotId);
    const alone = await embed(chatbotId, 'handoff', saved);
    expect(alone.status).toBe(200);
    expect(alone.body).toEqual({ state: 'BOT', available: false });

    const inbox = await inboxStream(other.apiKey);
    expect(inbox.status).toBe(200);
    const asked = await embed(chatbotId, 'handoff', saved);
    expect(asked.body).toEqual({ state: 'WAITING', available: true });
    const event = await inbox.waitFor(isState('WAITING'));
    expect(event.event).toMatchObject({ conversationId: saved.conversationId, chatbotId });
    inbox.close();
  });

  it('counts a person using the console lately as available, not an API client', async () => {
    const other = await ctx.newOrganisation();
    const chatbotId = await createChatbot(other.api);
    const saved = await visitorConversation(chatbotId);
    await other.api.get('/v1/chatbot/all').expect(200);
    expect((await embed(chatbotId, 'handoff', saved)).body).toEqual({ state: 'BOT', available: false });
    const signedIn = await supertest(ctx.url).post('/v1/session').send({ apiKey: other.apiKey }).expect(201);
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
    await supertest(ctx.url).get('/v1/chatbot/all').set('cookie', cookie).expect(200);
    // Presence is written without holding up the page's request: wait for it.
    let outcome: unknown;
    for (let i = 0; i < 50 && (outcome as { available?: boolean } | undefined)?.available !== true; i++) {
      outcome = (await embed(chatbotId, 'handoff', saved)).body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(outcome).toEqual({ state: 'WAITING', available: true });
  });

  it('counts the chatbot\'s office hours as available', async () => {
    const other = await ctx.newOrganisation();
    const always = { timeZone: 'UTC', weekdays: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '24:00' };
    const chatbotId = await createChatbot(other.api, { websiteIntegration: { officeHours: always } });
    const saved = await visitorConversation(chatbotId);
    expect((await embed(chatbotId, 'handoff', saved)).body).toEqual({ state: 'WAITING', available: true });
  });

  it('says a person is being asked when the team is available, and offers the contact route only when nobody is', async () => {
    const answerOf = async (chatbotId: string, text: string) => {
      const res = await embed(chatbotId, 'chat-stream', { conversation: [{ text, fromUser: true }] });
      expect(res.status).toBe(201);
      const events = decodeEvents(res.text);
      const said = events.map((event) => (event.type === 'partialResponse' ? event.data.text : '')).join('');
      return { said, end: events.find((event) => event.type === 'streamEnd') };
    };
    const other = await ctx.newOrganisation();
    const nobody = await createChatbot(other.api);
    const alone = await answerOf(nobody, 'please put me through to a person');
    expect(alone.said).toMatch(/contact details/);
    expect(alone.end).toMatchObject({ data: { handoff: true } });

    const always = { timeZone: 'UTC', weekdays: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '24:00' };
    const staffed = await createChatbot(other.api, { websiteIntegration: { officeHours: always } });
    const joining = await answerOf(staffed, 'please put me through to a person');
    expect(joining.said).toMatch(/asking someone from the team to join/);
    expect(joining.said).not.toMatch(/can't connect you|contact details/);
    expect(joining.end).toMatchObject({ data: { handoff: true } });
    // In the visitor's language where the replies are localised.
    const german = await answerOf(staffed, 'Ich möchte mit einem Menschen sprechen');
    expect(german.said).toMatch(/jemanden aus dem Team/);
    expect(german.end).toMatchObject({ data: { handoff: true } });
  });

  it('hands over, keeps the bot silent, delivers the reply, hands back and closes', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    const inbox = await inboxStream();
    const visitor = await visitorStream(chatbotId, saved);
    expect(visitor.status).toBe(200);

    expect((await embed(chatbotId, 'handoff', saved)).body.state).toBe('WAITING');
    await visitor.waitFor(isState('WAITING'));

    const listed = await ctx.api.get(`/v1/conversation/${chatbotId}?state=WAITING`);
    expect(listed.status).toBe(200);
    expect(listed.body.conversations.map((c: { id: string; state: string }) => [c.id, c.state])).toEqual([[saved.conversationId, 'WAITING']]);

    const takeover = await ctx.api.post(`/v1/conversation/${saved.conversationId}/takeover`);
    expect(takeover.status).toBe(200);
    expect(ConversationStatusSchema.parse(takeover.body)).toEqual({ id: saved.conversationId, state: 'HUMAN', heldBy: { memberId: null, name: null } });

    // The bot is silent; the visitor's message reaches the organisation's stream at once.
    const held = await ask(chatbotId, saved, 'Is anyone there?');
    expect(held.status).toBe(201);
    expect(decodeEvents(held.text)).toEqual([{ type: 'streamEnd', data: { sources: [], state: 'HUMAN' } }]);
    const fromVisitor = await inbox.waitFor(isMessage('Is anyone there?'));
    expect(fromVisitor.event).toMatchObject({ type: 'message', index: 2, message: { fromUser: true, sender: { type: 'visitor' } } });

    const reply = await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Yes, Ana here. How can I help?' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ index: 3, message: { text: 'Yes, Ana here. How can I help?', fromUser: false, sender: { type: 'member' } } });
    const delivered = await visitor.waitFor(isMessage('Yes, Ana here. How can I help?'));
    // The visitor's stream carries the team's messages and states, never the visitor's own.
    expect(visitor.events.some(isMessage('Is anyone there?'))).toBe(false);

    // A save of the whole conversation by the widget while the team has it leaves the messages alone.
    const save = await embed(chatbotId, 'conversation', { ...saved, messages: [{ text: 'Hello', fromUser: true }] });
    expect(save.status).toBe(201);
    expect(save.body.messages).toHaveLength(4);

    expect((await ctx.api.post(`/v1/conversation/${saved.conversationId}/release`)).body.state).toBe('BOT');
    await visitor.waitFor(isState('BOT'), visitor.events.indexOf(delivered));
    const answered = decodeEvents((await ask(chatbotId, saved, 'What are your opening hours?')).text);
    expect(answered.some((event) => event.type === 'partialResponse')).toBe(true);

    // The widget saves the whole conversation again after the bot's answer: the member's reply keeps its sender.
    const all = (await ctx.api.get(`/v1/conversation/${chatbotId}`)).body.conversations[0].messages as { text: string; fromUser: boolean }[];
    const resaved = await embed(chatbotId, 'conversation', { ...saved, messages: [...all.map(({ text, fromUser }) => ({ text, fromUser })), { text: 'Thanks', fromUser: true }] });
    expect(resaved.body.messages[3]).toMatchObject({ text: 'Yes, Ana here. How can I help?', sender: { type: 'member' } });
    expect(resaved.body.messages[4]).toMatchObject({ text: 'Thanks', sender: { type: 'visitor' } });

    expect((await ctx.api.post(`/v1/conversation/${saved.conversationId}/close`)).body.state).toBe('CLOSED');
    await visitor.waitFor(isState('CLOSED'));
    const late = await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'One more thing' });
    expect(late.status).toBe(409);
    expect(late.body.message).toEqual([`conversation ${saved.conversationId} is closed`]);
    expect((await ctx.api.post(`/v1/conversation/${saved.conversationId}/takeover`)).status).toBe(409);
  });

  it('replays exactly the missed events after Last-Event-ID, on both streams', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    const first = await visitorStream(chatbotId, saved);
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'First' });
    const seen = await first.waitFor(isMessage('First'));
    first.close();
    // Missed while away: a visitor message (not for the visitor's stream), two replies and a state change.
    await ask(chatbotId, saved, 'Visitor says hi');
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Second' });
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Third' });
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/release`);

    const again = await visitorStream(chatbotId, saved, { 'last-event-id': String(seen.id) });
    await again.waitFor(isState('BOT'));
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Live' });
    await again.waitFor(isMessage('Live'));
    const texts = again.events.map(({ event }) => (event.type === 'message' ? event.message.text : event.state));
    expect(texts).toEqual(['Second', 'Third', 'BOT', 'HUMAN', 'Live']);
    expect(new Set(again.events.map((e) => e.id)).size).toBe(again.events.length);

    const inbox = await inboxStream(ctx.org.apiKey, { 'last-event-id': String(seen.id) });
    await inbox.waitFor(isMessage('Live'));
    expect(inbox.events.filter((e) => e.event.conversationId === saved.conversationId).map(({ event }) => (event.type === 'message' ? event.message.text : event.state)))
      .toEqual(['Visitor says hi', 'Second', 'Third', 'BOT', 'HUMAN', 'Live']);
  });

  it('keeps organisations apart and says who holds a conversation', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    const other = await ctx.newOrganisation();
    for (const action of ['takeover', 'release', 'close']) expect((await other.api.post(`/v1/conversation/${saved.conversationId}/${action}`)).status).toBe(404);
    expect((await other.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Hi' })).status).toBe(404);
    const theirs = (await other.api.get('/v1/inbox')).body;
    expect(theirs.conversations).toEqual([]);

    // A member holds it (members arrive with issue 37; set here as they will be stored).
    await ctx.database.db('conversations').where({ id: saved.conversationId }).update({ state: 'HUMAN', holder_member_id: 'a'.repeat(24), holder_name: 'Ana' });
    const taken = await ctx.api.post(`/v1/conversation/${saved.conversationId}/takeover`);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toEqual([`conversation ${saved.conversationId} is held by Ana`]);
    expect((await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Hi' })).status).toBe(409);
  });

  it('checks input and the visitor\'s secret', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    const id = saved.conversationId;
    expect((await ctx.api.post(`/v1/conversation/${id}/messages`).send({ text: '' })).status).toBe(400);
    expect((await ctx.api.post(`/v1/conversation/${id}/messages`).send({ text: 'x'.repeat(4001) })).status).toBe(400);
    expect((await ctx.api.post(`/v1/conversation/${id}/messages`).send({ text: 'x', extra: 1 })).status).toBe(400);
    expect((await ctx.api.post('/v1/conversation/nope/takeover')).status).toBe(400);
    expect((await ctx.api.get('/v1/inbox?state=LOST')).status).toBe(400);
    expect((await ctx.api.get(`/v1/conversation/${chatbotId}?state=LOST`)).status).toBe(400);
    expect((await embed(chatbotId, 'handoff', { ...saved, visitorToken: 'wrong' })).status).toBe(404);
    expect((await embed(chatbotId, 'handoff', { conversationId: id })).status).toBe(400);
    expect((await visitorStream(chatbotId, { ...saved, visitorToken: 'wrong' })).status).toBe(404);
    expect((await track(openLiveStream(`${ctx.url}/v1/embed/${chatbotId}/conversation/${id}/events`, { origin: SITE }))).status).toBe(404);
    expect((await visitorStream(chatbotId, saved, { 'last-event-id': 'abc' })).status).toBe(400);
    // Another chatbot's id with this conversation: not found.
    const otherChatbot = await createChatbot();
    expect((await visitorStream(otherChatbot, saved)).status).toBe(404);
    expect((await inboxStream('wrong-key')).status).toBe(401);
  });

  it('limits the open streams of one visitor', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await visitorStream(chatbotId, saved)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('lists the inbox across chatbots, newest activity first, by state and in pages', async () => {
    const org = await ctx.newOrganisation();
    const [a, b] = [await createChatbot(org.api), await createChatbot(org.api, { name: 'Second bot' })];
    const first = await visitorConversation(a);
    const second = await visitorConversation(b);
    await org.api.post(`/v1/conversation/${first.conversationId}/takeover`);
    const page = InboxPageSchema.parse((await org.api.get('/v1/inbox?limit=1')).body);
    expect(page.conversations.map((c) => [c.id, c.state, c.chatbotName])).toEqual([[first.conversationId, 'HUMAN', 'Shop bot']]);
    const next = InboxPageSchema.parse((await org.api.get(`/v1/inbox?limit=1&cursor=${page.nextCursor}`)).body);
    expect(next.conversations.map((c) => c.id)).toEqual([second.conversationId]);
    expect(next.nextCursor).toBeUndefined();
    const human = InboxPageSchema.parse((await org.api.get('/v1/inbox?state=HUMAN')).body);
    expect(human.conversations.map((c) => c.id)).toEqual([first.conversationId]);
  });
});

describe('live handoff bounds', () => {
  it('limits one address\'s open streams across chatbots', async () => {
    const { MAX_ADDRESS_STREAMS, MAX_VISITOR_STREAMS } = await import('../embed/embed.routes.js');
    const address = '127.0.0.9';
    const statuses: number[] = [];
    for (let c = 0; c <= MAX_ADDRESS_STREAMS / MAX_VISITOR_STREAMS; c++) {
      const chatbotId = await createChatbot();
      const saved = await visitorConversation(chatbotId);
      for (let v = 0; v < MAX_VISITOR_STREAMS; v++) {
        statuses.push((await track(openLiveStream(`${ctx.url}/v1/embed/${chatbotId}/conversation/${saved.conversationId}/events`,
          { origin: SITE, 'x-visitor-token': saved.visitorToken }, address))).status);
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_ADDRESS_STREAMS);
    expect(statuses.slice(MAX_ADDRESS_STREAMS).every((status) => status === 429)).toBe(true);
  });

  it('keeps a conversation within its bounds while the team has it', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    await ctx.database.db('conversations').where({ id: saved.conversationId })
      .update({ messages: JSON.stringify(Array.from({ length: 999 }, () => ({ text: 'x', fromUser: true }))) });
    expect((await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'The 1000th' })).status).toBe(201);
    const over = await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'One too many' });
    expect(over.status).toBe(400);
    expect(over.body.message).toEqual(['the conversation holds at most 1000 messages and 400000 characters of text in total']);
  });
});

describe('live event retention', () => {
  it('prunes events past their retention; the messages stay in the conversation', async () => {
    const chatbotId = await createChatbot();
    const saved = await visitorConversation(chatbotId);
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/messages`).send({ text: 'Long ago' });
    const { EVENT_RETENTION_MS } = await import('./handoff.service.js');
    await ctx.database.db('conversation_events').where({ conversation_id: saved.conversationId })
      .update({ created_at: Date.now() - EVENT_RETENTION_MS - 1000 });
    // The next state change prunes (at most hourly per instance; the clock is set back here).
    (ctx.services.handoff as unknown as { lastPrune: number }).lastPrune = 0;
    await ctx.api.post(`/v1/conversation/${saved.conversationId}/release`);
    await expect.poll(async () => (await ctx.database.db('conversation_events').where({ conversation_id: saved.conversationId })).map((row) => row.type))
      .toEqual(['state']);
    const listed = (await ctx.api.get(`/v1/conversation/${chatbotId}`)).body.conversations[0];
    expect(listed.messages.map((m: { text: string }) => m.text)).toContain('Long ago');
  });
});
