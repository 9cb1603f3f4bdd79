import { FeedbackListingSchema, FeedbackSchema, LeadSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

const SITE = 'https://shop.example';
const post = (id: string, path: string, body: unknown) => ctx.anonymous.post(`/v1/embed/${id}/${path}`).set('Origin', SITE).send(body as object);

async function visitorConversation(): Promise<{ chatbotId: string; conversationId: string; visitorToken: string }> {
  const created = await ctx.api.post('/v1/chatbot').send({ name: 'Feedback bot' });
  const chatbotId = created.body.id as string;
  const saved = await post(chatbotId, 'conversation', { messages: [
    { text: 'Do you ship abroad?', fromUser: true }, { text: 'Yes, to 30 countries.', fromUser: false },
    { text: 'And returns?', fromUser: true }, { text: 'Within 30 days.', fromUser: false },
  ] });
  expect(saved.status).toBe(201);
  return { chatbotId, conversationId: saved.body.id, visitorToken: saved.body.visitorToken };
}

describe('POST /v1/embed/{chatbotId}/feedback and GET /v1/feedback/{id} (extensions)', () => {
  it('stores a visitor\'s 👍 and 👎 with a comment, replaces a changed verdict, and lists them with counts', async () => {
    const { chatbotId, conversationId, visitorToken } = await visitorConversation();
    const up = await post(chatbotId, 'feedback', { conversationId, visitorToken, messageIndex: 1, rating: 'up' });
    expect(up.status).toBe(201);
    expect(FeedbackSchema.strict().parse(up.body)).toMatchObject({ conversationId, messageIndex: 1, rating: 'up', answer: 'Yes, to 30 countries.' });
    await post(chatbotId, 'feedback', { conversationId, visitorToken, messageIndex: 3, rating: 'up' });
    const down = await post(chatbotId, 'feedback', { conversationId, visitorToken, messageIndex: 3, rating: 'down', comment: 'Which countries?' });
    expect(down.status).toBe(201);
    const listing = await ctx.api.get(`/v1/feedback/${chatbotId}`);
    expect(listing.status).toBe(200);
    const body = FeedbackListingSchema.parse(listing.body);
    expect(body.totals).toEqual({ up: 1, down: 1 });
    expect(body.feedback.map((f) => [f.messageIndex, f.rating, f.comment])).toEqual([[3, 'down', 'Which countries?'], [1, 'up', undefined]]);
    // Counted in the chatbot's statistics too.
    expect((await ctx.api.get(`/v1/chatbot/${chatbotId}/stats`)).body.feedback).toEqual({ up: 1, down: 1, upShare: 0.5 });
  });

  it('refuses another visitor\'s conversation (404), a question\'s index (400) and an unknown chatbot for the owner (404)', async () => {
    const { chatbotId, conversationId, visitorToken } = await visitorConversation();
    expect((await post(chatbotId, 'feedback', { conversationId, visitorToken: 'not-mine', messageIndex: 1, rating: 'up' })).status).toBe(404);
    const question = await post(chatbotId, 'feedback', { conversationId, visitorToken, messageIndex: 0, rating: 'up' });
    expect(question.status).toBe(400);
    expect((await post(chatbotId, 'feedback', { conversationId, visitorToken, messageIndex: 1, rating: 'meh' })).status).toBe(400);
    expect((await ctx.api.get('/v1/feedback/0123456789abcdef01234567')).status).toBe(404);
  });
});

describe('leads from the widget (extensions)', () => {
  it('carry the conversation and the page they were left on', async () => {
    const { chatbotId, conversationId } = await visitorConversation();
    const pageUrl = 'https://shop.example/products/tent?ref=chat';
    const res = await post(chatbotId, 'leads', { email: 'ada@example.com', conversationId, pageUrl });
    expect(res.status).toBe(201);
    expect(LeadSchema.strict().parse(res.body)).toMatchObject({ email: 'ada@example.com', conversationId, pageUrl });
    const listing = await ctx.api.get(`/v1/lead/${chatbotId}`);
    expect(listing.body.leads[0]).toMatchObject({ conversationId, pageUrl });
    expect((await post(chatbotId, 'leads', { email: 'ada@example.com', pageUrl: 'javascript:alert(1)' })).status).toBe(400);
    expect((await post(chatbotId, 'leads', { email: 'ada@example.com', conversationId: '0123456789abcdef01234567' })).status).toBe(404);
  });
});
