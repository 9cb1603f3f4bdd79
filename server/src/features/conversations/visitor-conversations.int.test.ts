import { EmbedConversationSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../errors/http-error.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import { hashVisitorToken } from './visitor-token.js';

let ctx: TestContext;
let chatbot: ChatbotRecord;
let otherChatbot: ChatbotRecord;
beforeAll(async () => {
  ctx = await createTestContext();
  const find = async (name: string) => {
    const id = (await ctx.api.post('/v1/chatbot').send({ name }).expect(201)).body.id;
    return (await ctx.services.chatbotsRepository.find(ctx.org.organisationId, id))!;
  };
  chatbot = await find('Widget');
  otherChatbot = await find('Other');
});
afterAll(async () => { await ctx?.close(); });

const first = [{ text: 'Hi, do you ship abroad?', fromUser: true }, { text: 'Yes, to the EU.', fromUser: false }];
const more = [{ text: 'How long does it take?', fromUser: true }];
/** Messages as they are stored and answered: each with who sent it (issue 35). */
const sent = (messages: { text: string; fromUser: boolean }[]) => messages.map((m) => ({ ...m, sender: { type: m.fromUser ? 'visitor' : 'bot' } }));

async function expectStatus(promise: Promise<unknown>, status: number) {
  const error = await promise.then(() => undefined, (err: unknown) => err);
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).statusCode).toBe(status);
}

describe('ConversationsService.saveForVisitor', () => {
  it('creates a website conversation without a user and returns a secret token, storing only its SHA-256', async () => {
    const saved = EmbedConversationSchema.parse(await ctx.services.conversations.saveForVisitor(chatbot, 'website', { messages: first, override: true }));
    expect(saved).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/), chatbot: chatbot.id, createdAt: expect.any(Number),
      messages: sent(first), source: { type: 'website' }, visitorToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const row = await ctx.database.db('conversations').where({ id: saved.id }).first();
    expect(row).toMatchObject({ user_id: null, source_type: 'website', visitor_token_hash: hashVisitorToken(saved.visitorToken) });
    expect(JSON.stringify(row)).not.toContain(saved.visitorToken);
  });

  it('records the chat link as source link and lists it under that source', async () => {
    const saved = await ctx.services.conversations.saveForVisitor(chatbot, 'link', { messages: first, override: true });
    const listing = (await ctx.api.get(`/v1/conversation/${chatbot.id}?sources=link`).expect(200)).body;
    expect(listing.conversations.map((c: { id: string }) => c.id)).toEqual([saved.id]);
    expect(listing.conversations[0].source).toEqual({ type: 'link' });
  });

  it('lets the visitor holding the token append to and replace its own conversation', async () => {
    const { id, visitorToken } = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { messages: first, override: true });
    const appended = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { conversationId: id, visitorToken, messages: more, override: false });
    expect(appended).toMatchObject({ id, visitorToken, messages: sent([...first, ...more]), source: { type: 'website' } });
    const replaced = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { conversationId: id, visitorToken, messages: more, override: true });
    expect(replaced.messages).toEqual(sent(more));
  });

  it('answers 404 for a wrong or missing token, another chatbot, an absent conversation, or an API conversation', async () => {
    const { id, visitorToken } = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { messages: first, override: true });
    const other = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { messages: first, override: true });
    const service = ctx.services.conversations;
    await expectStatus(service.saveForVisitor(chatbot, 'website', { conversationId: id, visitorToken: 'guessed', messages: more, override: false }), 404);
    await expectStatus(service.saveForVisitor(chatbot, 'website', { conversationId: id, messages: more, override: false }), 404);
    await expectStatus(service.saveForVisitor(chatbot, 'website', { conversationId: id, visitorToken: other.visitorToken, messages: more, override: false }), 404);
    await expectStatus(service.saveForVisitor(otherChatbot, 'website', { conversationId: id, visitorToken, messages: more, override: false }), 404);
    await expectStatus(service.saveForVisitor(chatbot, 'website', { conversationId: ABSENT_ID, visitorToken, messages: more, override: false }), 404);
    const api = (await ctx.api.post('/v1/conversation').send({ chatbotId: chatbot.id, messages: first }).expect(201)).body;
    await expectStatus(service.saveForVisitor(chatbot, 'website', { conversationId: api.id, visitorToken, messages: more, override: false }), 404);
    const row = await ctx.database.db('conversations').where({ id }).first();
    expect(row.messages).toEqual(sent(first));
  });

  it('lets the owner\'s API key extend a visitor conversation, keeping its source and having no user', async () => {
    const { id } = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { messages: first, override: true });
    const res = await ctx.api.post('/v1/conversation').send({ chatbotId: chatbot.id, conversationId: id, override: false, messages: more }).expect(201);
    expect(res.body).toEqual({ id, chatbot: chatbot.id, createdAt: expect.any(Number), messages: sent([...first, ...more]), source: { type: 'website' } });
  });

  it('queues one analysis per save of a visitor conversation', async () => {
    const { id, visitorToken } = await ctx.services.conversations.saveForVisitor(chatbot, 'website', { messages: first, override: true });
    await ctx.services.conversations.saveForVisitor(chatbot, 'website', { conversationId: id, visitorToken, messages: more, override: false });
    const queued = await ctx.database.db('jobs').where({ kind: 'analyse-conversation', status: 'queued' }).whereRaw("payload->>'conversationId' = ?", [id]);
    // Deduplicated: both saves are covered by the one waiting job, which reads the latest version.
    expect(queued).toHaveLength(1);
  });
});
