import { ChatbotStatsSchema, ConversationListingSchema, LeadListingSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let chatbotId: string;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 9, 30);

interface Seed { at: number; messages: [string, boolean][]; sentiment?: string; intent?: string; unanswered?: string[]; source?: string }

/** Inserts an analysed conversation at a chosen time (saves always stamp now). */
async function insertConversation(seed: Seed): Promise<string> {
  const id = newId(seed.at);
  const analysis = seed.sentiment && {
    summary: 's', customExtractedData: {}, unansweredQuestions: seed.unanswered ?? [],
    extractedData: { keyPoints: [], nextSteps: [], sentimentAnalysis: seed.sentiment, intentClassification: seed.intent ?? 'other' },
  };
  await ctx.database.db('conversations').insert({
    id, organisation_id: ctx.org.organisationId, chatbot_id: chatbotId, created_at: seed.at, updated_at: seed.at,
    messages: JSON.stringify(seed.messages.map(([text, fromUser]) => ({ text, fromUser }))),
    source_type: seed.source ?? 'website', source: JSON.stringify({ type: seed.source ?? 'website' }),
    analysis_status: analysis ? 'DONE' : 'PENDING', analysis_result: analysis ? JSON.stringify(analysis) : null,
  });
  return id;
}

const ids: string[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Shop' }).expect(201)).body.id;
  const seeds: Seed[] = [
    { at: T0, messages: [['Do you sell gift cards?', true], ['Sorry, I do not know.', false]], sentiment: 'neutral', intent: 'purchase', unanswered: ['Do you sell gift cards?'] },
    { at: T0 + 60_000, messages: [['How much is shipping?', true], ['Shipping is free.', false], ['Great, thanks!', true]], sentiment: 'positive', intent: 'pricing' },
    { at: T0 + DAY + 3_600_000, messages: [['My order is broken', true], ['We are sorry.', false]], sentiment: 'negative', intent: 'support', source: 'link' },
    { at: T0 + 2 * DAY, messages: [['Hello', true]] },
  ];
  for (const seed of seeds) ids.push(await insertConversation(seed));
  for (const [index, email] of ['a@example.com', 'b@example.com', '=cmd@example.com'].entries()) {
    await ctx.database.db('leads').insert({
      id: newId(T0 + index), organisation_id: ctx.org.organisationId, chatbot_id: chatbotId, created_at: T0 + index, email,
      name: index === 1 ? 'Bob, "the builder"' : null, conversation_id: index === 0 ? ids[0] : null,
    });
  }
});
afterAll(async () => { await ctx?.close(); });

describe('GET /v1/chatbot/{id}/stats', () => {
  it('sums up conversations per day, sentiment, intents, unanswered share, hours and knowledge gaps', async () => {
    const res = await ctx.api.get(`/v1/chatbot/${chatbotId}/stats?start=${T0}&end=${T0 + 3 * DAY}`).expect(200);
    const stats = ChatbotStatsSchema.parse(res.body);
    expect(stats).toMatchObject({
      chatbotName: 'Shop', conversations: 4, messages: 8,
      days: [{ date: '2026-01-05', conversations: 2, messages: 5 }, { date: '2026-01-06', conversations: 1, messages: 2 }, { date: '2026-01-07', conversations: 1, messages: 1 }],
      sentiment: { neutral: 1, positive: 1, negative: 1 },
      topIntents: [{ intent: 'pricing', conversations: 1 }, { intent: 'purchase', conversations: 1 }, { intent: 'support', conversations: 1 }],
      questions: { asked: 5, unanswered: 1, unansweredShare: 0.2 },
      knowledgeGaps: [{ question: 'Do you sell gift cards?', conversationId: ids[0], createdAt: T0 }],
    });
    expect(stats.busiestHours[9]).toBe(3);
    expect(stats.busiestHours[10]).toBe(1);
    expect(stats.busiestHours.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('answers an empty summary for an empty range, 400 for a bad range, 404 for others\' chatbots', async () => {
    const empty = ChatbotStatsSchema.parse((await ctx.api.get(`/v1/chatbot/${chatbotId}/stats?start=0&end=1000`).expect(200)).body);
    expect(empty).toMatchObject({ conversations: 0, messages: 0, days: [], sentiment: {}, topIntents: [], questions: { asked: 0, unanswered: 0, unansweredShare: 0 } });
    await ctx.api.get(`/v1/chatbot/${chatbotId}/stats?start=5&end=1`).expect(400);
    await ctx.api.get(`/v1/chatbot/${ABSENT_ID}/stats`).expect(404);
    await (await ctx.newOrganisation()).api.get(`/v1/chatbot/${chatbotId}/stats`).expect(404);
  });
});

describe('paged listings (extension)', () => {
  it('keeps the unpaged conversation listing as the contract has it', async () => {
    const listing = (await ctx.api.get(`/v1/conversation/${chatbotId}`).expect(200)).body;
    expect(Object.keys(listing).sort()).toEqual(['chatbotName', 'conversations', 'createdAt', 'endInterval', 'startInterval']);
    expect(listing.conversations).toHaveLength(4);
  });

  it('pages conversations newest first with a cursor, filtered by source and search', async () => {
    const first = ConversationListingSchema.parse((await ctx.api.get(`/v1/conversation/${chatbotId}?limit=3`).expect(200)).body);
    expect(first.conversations.map((c) => c.id)).toEqual([ids[3], ids[2], ids[1]]);
    const second = ConversationListingSchema.parse((await ctx.api.get(`/v1/conversation/${chatbotId}?limit=3&cursor=${first.nextCursor}`).expect(200)).body);
    expect(second.conversations.map((c) => c.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeUndefined();
    expect(second.conversations[0]!.analysis.result?.unansweredQuestions).toEqual(['Do you sell gift cards?']);
    const links = (await ctx.api.get(`/v1/conversation/${chatbotId}?limit=10&sources=link`).expect(200)).body;
    expect(links.conversations.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
    const found = (await ctx.api.get(`/v1/conversation/${chatbotId}?search=SHIPPING`).expect(200)).body;
    expect(found.conversations.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
    expect(found.nextCursor).toBeUndefined();
    const literal = (await ctx.api.get(`/v1/conversation/${chatbotId}?search=%25`).expect(200)).body;
    expect(literal.conversations).toEqual([]);
    for (const query of ['limit=0', 'limit=500', 'cursor=nope', 'cursor=1.abc', 'search=']) {
      await ctx.api.get(`/v1/conversation/${chatbotId}?${query}`).expect(400);
    }
  });

  it('pages leads with their conversation, and keeps the unpaged shape without paging', async () => {
    const all = (await ctx.api.get(`/v1/lead/${chatbotId}`).expect(200)).body;
    expect(all.nextCursor).toBeUndefined();
    expect(all.leads).toHaveLength(3);
    const first = LeadListingSchema.parse((await ctx.api.get(`/v1/lead/${chatbotId}?limit=2`).expect(200)).body);
    expect(first.leads.map((l) => l.email)).toEqual(['=cmd@example.com', 'b@example.com']);
    const second = LeadListingSchema.parse((await ctx.api.get(`/v1/lead/${chatbotId}?limit=2&cursor=${first.nextCursor}`).expect(200)).body);
    expect(second.leads).toEqual([{ createdAt: T0, email: 'a@example.com', conversationId: ids[0] }]);
    expect(second.nextCursor).toBeUndefined();
    await ctx.api.get(`/v1/lead/${chatbotId}?cursor=x`).expect(400);
  });
});

describe('GET /v1/lead/{id}/csv', () => {
  it('exports the range\'s leads as CSV, quoting and defusing formulas', async () => {
    const res = await ctx.api.get(`/v1/lead/${chatbotId}/csv?start=${T0}`).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename=leads-Shop.csv');
    expect(res.text.split('\r\n')).toEqual([
      'createdAt,name,email,phone,conversationId,pageUrl',
      `${new Date(T0 + 2).toISOString()},,'=cmd@example.com,,,`,
      `${new Date(T0 + 1).toISOString()},"Bob, ""the builder""",b@example.com,,,`,
      `${new Date(T0).toISOString()},,a@example.com,,${ids[0]},`,
      '',
    ]);
    await ctx.api.get(`/v1/lead/${chatbotId}/csv?start=9&end=1`).expect(400);
    await ctx.api.get(`/v1/lead/${ABSENT_ID}/csv`).expect(404);
    await ctx.anonymous.get(`/v1/lead/${chatbotId}/csv`).expect(401);
  });
});
