import { ChatbotStatsSchema, ConversationListingSchema, ErrorBodySchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
const SITE = 'https://shop.example';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 10, 8, 0);

type Agent = TestContext['api'];
interface Rated { chatbotId: string; conversations: string[] }

/** A visitor conversation saved through the widget's endpoint, and its visitor token. */
async function visitorConversation(chatbotId: string, texts: [string, boolean][]): Promise<{ id: string; visitorToken: string }> {
  const res = await ctx.anonymous.post(`/v1/embed/${chatbotId}/conversation`).set('Origin', SITE)
    .send({ messages: texts.map(([text, fromUser]) => ({ text, fromUser })) }).expect(201);
  return { id: res.body.id, visitorToken: res.body.visitorToken };
}

/** Rates an answer through the widget's endpoint, then dates the verdict `at` (the endpoint stamps now). */
async function rate(chatbotId: string, conversation: { id: string; visitorToken: string }, messageIndex: number, rating: 'up' | 'down', at: number, comment?: string) {
  await ctx.anonymous.post(`/v1/embed/${chatbotId}/feedback`).set('Origin', SITE)
    .send({ conversationId: conversation.id, visitorToken: conversation.visitorToken, messageIndex, rating, ...(comment ? { comment } : {}) }).expect(201);
  await ctx.database.db('message_feedback').where({ conversation_id: conversation.id, message_index: messageIndex }).update({ created_at: at });
}

/** A chatbot with three conversations: one 👎 with a comment (and a 👍), one 👍 only, one unrated. */
async function seedChatbot(api: Agent, name: string): Promise<Rated> {
  const chatbotId = (await api.post('/v1/chatbot').send({ name }).expect(201)).body.id as string;
  const mixed = await visitorConversation(chatbotId, [
    ['Do you ship abroad?', true], ['Yes, to 30 countries.', false], ['Which ones?', true], ['Many of them.', false],
  ]);
  const happy = await visitorConversation(chatbotId, [['Opening hours?', true], ['9 to 5, Monday to Friday.', false]]);
  const unrated = await visitorConversation(chatbotId, [['Hello', true], ['Hi! How can I help?', false]]);
  await rate(chatbotId, mixed, 1, 'up', T0);
  await rate(chatbotId, mixed, 3, 'down', T0 + DAY, 'That does not say which countries');
  await rate(chatbotId, happy, 1, 'up', T0 + DAY + 60_000);
  return { chatbotId, conversations: [mixed.id, happy.id, unrated.id] };
}

let mine: Rated;
let theirs: Rated;
beforeAll(async () => {
  ctx = await createTestContext();
  mine = await seedChatbot(ctx.api, 'Shop');
  const other = await ctx.newOrganisation();
  theirs = await seedChatbot(other.api, 'Other shop');
  // More verdicts on the other organisation's chatbot: they must never show in this organisation's figures.
  const extra = await visitorConversation(theirs.chatbotId, [['Price?', true], ['Ten euros.', false]]);
  await rate(theirs.chatbotId, extra, 1, 'down', T0 + DAY);
});
afterAll(async () => { await ctx?.close(); });

const list = async (chatbotId: string, query: string) =>
  ConversationListingSchema.parse((await ctx.api.get(`/v1/conversation/${chatbotId}?${query}`).expect(200)).body);

describe('GET /v1/conversation/{id}: visitors\' ratings (extension)', () => {
  it('carries each rated answer\'s verdict and comment, and omits feedback on unrated conversations', async () => {
    const [mixed, happy, unrated] = mine.conversations;
    const listing = await list(mine.chatbotId, '');
    const byId = new Map(listing.conversations.map((conversation) => [conversation.id, conversation]));
    expect(byId.get(mixed!)!.feedback).toEqual([
      { messageIndex: 1, rating: 'up', createdAt: T0 },
      { messageIndex: 3, rating: 'down', comment: 'That does not say which countries', createdAt: T0 + DAY },
    ]);
    expect(byId.get(happy!)!.feedback).toEqual([{ messageIndex: 1, rating: 'up', createdAt: T0 + DAY + 60_000 }]);
    expect(byId.get(unrated!)).not.toHaveProperty('feedback');
    const paged = await list(mine.chatbotId, 'limit=10');
    expect(paged.conversations.find((conversation) => conversation.id === mixed)!.feedback).toHaveLength(2);
  });

  it('keeps only conversations rated 👎 (or 👍) with `rating`, combined with paging and search', async () => {
    const [mixed, happy] = mine.conversations;
    expect((await list(mine.chatbotId, 'rating=down')).conversations.map((c) => c.id)).toEqual([mixed]);
    expect((await list(mine.chatbotId, 'rating=up')).conversations.map((c) => c.id)).toEqual([happy, mixed]);
    const page = await list(mine.chatbotId, 'rating=up&limit=1');
    expect(page.conversations.map((c) => c.id)).toEqual([happy]);
    const next = await list(mine.chatbotId, `rating=up&limit=1&cursor=${page.nextCursor}`);
    expect(next.conversations.map((c) => c.id)).toEqual([mixed]);
    expect(next.nextCursor).toBeUndefined();
    expect((await list(mine.chatbotId, 'rating=down&search=opening')).conversations).toEqual([]);
  });

  it('answers 400 for a rating other than up or down', async () => {
    for (const value of ['meh', 'DOWN', '', 'down,up']) {
      const res = await ctx.api.get(`/v1/conversation/${mine.chatbotId}?rating=${value}`).expect(400);
      expect(ErrorBodySchema.parse(res.body).message.join(' ')).toContain('rating');
    }
  });

  it('never shows another organisation\'s conversations or verdicts', async () => {
    await ctx.api.get(`/v1/conversation/${theirs.chatbotId}?rating=down`).expect(404);
    const listing = await list(mine.chatbotId, 'rating=down&limit=50');
    expect(listing.conversations.every((conversation) => mine.conversations.includes(conversation.id))).toBe(true);
  });
});

describe('GET /v1/chatbot/{id}/stats: 👍 share (extension)', () => {
  it('counts 👍, 👎 and the 👍 share of the range, and per UTC day, for this organisation\'s chatbot only', async () => {
    const stats = ChatbotStatsSchema.parse((await ctx.api.get(`/v1/chatbot/${mine.chatbotId}/stats?start=${T0}&end=${T0 + 3 * DAY}`).expect(200)).body);
    expect(stats.feedback).toEqual({ up: 2, down: 1, upShare: 2 / 3 });
    expect(stats.feedbackDays).toEqual([
      { date: '2026-03-10', up: 1, down: 0, upShare: 1 },
      { date: '2026-03-11', up: 1, down: 1, upShare: 0.5 },
    ]);
    const day = ChatbotStatsSchema.parse((await ctx.api.get(`/v1/chatbot/${mine.chatbotId}/stats?start=${T0 + DAY}&end=${T0 + DAY}`).expect(200)).body);
    expect(day.feedback).toEqual({ up: 0, down: 1, upShare: 0 });
  });

  it('omits the share when nothing was rated in the range', async () => {
    const stats = ChatbotStatsSchema.parse((await ctx.api.get(`/v1/chatbot/${mine.chatbotId}/stats?start=0&end=1000`).expect(200)).body);
    expect(stats.feedback).toEqual({ up: 0, down: 0 });
    expect(stats.feedbackDays).toEqual([]);
  });
});

describe('FeedbackService.listDownRated (for the knowledge-gap queue)', () => {
  it('lists the chatbot\'s 👎 answers with the visitor question before each, newest first, of its organisation only', async () => {
    const chatbot = { id: mine.chatbotId, organisationId: ctx.org.organisationId };
    expect(await ctx.services.feedback.listDownRated(chatbot, 0, Date.now())).toEqual([{
      conversationId: mine.conversations[0], messageIndex: 3, question: 'Which ones?', answer: 'Many of them.',
      comment: 'That does not say which countries', createdAt: T0 + DAY,
    }]);
    expect(await ctx.services.feedback.listDownRated({ id: theirs.chatbotId, organisationId: ctx.org.organisationId }, 0, Date.now())).toEqual([]);
  });
});
