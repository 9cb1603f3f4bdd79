import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { insertChunkedResource } from './chat-test-fixtures.js';

let ctx: TestContext;
let chatbot: ChatbotRecord;
let resourceId: string;
const ask = (text: string) => [{ text, fromUser: true }];

beforeAll(async () => {
  ctx = await createTestContext();
  resourceId = await insertChunkedResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'garden.txt', [
    'Tomatoes need six hours of sun a day. Water them at the base, never on the leaves.',
  ]);
  const created = await ctx.api.post('/v1/chatbot').send({
    name: 'Garden', resourceIds: [resourceId], restrictAnswersToResourcesContentResponse: 'Ask me about tomatoes.',
  });
  const auth = (await ctx.services.organisations.authenticate(ctx.org.apiKey))!;
  chatbot = await ctx.services.chatbots.getRecord(auth, created.body.id);
});
afterAll(async () => { await ctx?.close(); });

describe('ChatService.prepareForChatbot (the embed API\'s entry point)', () => {
  it('answers a visitor from the chatbot\'s resources; deltas and text agree', async () => {
    const { chat } = ctx.services;
    const streamed = await chat.prepareForChatbot(chatbot.organisationId, {}, chatbot, ask('How much sun do tomatoes need?'));
    let joined = '';
    for await (const delta of streamed.deltas(new AbortController().signal)) joined += delta;
    const plain = await chat.prepareForChatbot(chatbot.organisationId, {}, chatbot, ask('How much sun do tomatoes need?'));
    const text = await plain.text();
    expect(text).toBe(joined);
    // The text is the answer alone; where it came from is in the metadata, the same for both.
    expect(joined).toBe('Tomatoes need six hours of sun a day.');
    const sources = [{ resourceId, title: 'garden.txt', snippet: 'Tomatoes need six hours of sun a day.' }];
    expect(streamed.meta(joined)).toEqual({ sources });
    expect(plain.meta(text)).toEqual({ sources });
    expect(streamed.prompt?.system).toContain('[1] (source: garden.txt)');
  });

  it('answers exactly the restrict text, without a model prompt, when nothing relevant is found', async () => {
    const answer = await ctx.services.chat.prepareForChatbot(chatbot.organisationId, {}, chatbot, ask('What is the capital of Peru?'));
    expect(answer.prompt).toBeUndefined();
    expect(await answer.text()).toBe('Ask me about tomatoes.');
    expect(answer.meta('Ask me about tomatoes.')).toEqual({ sources: [], refused: true });
  });

  it('counts each prepared answer against the plan it is given, and refuses with 402 when spent', async () => {
    const org = await ctx.newOrganisation();
    const theirs = { ...chatbot, organisationId: org.organisationId, resourceIds: [] };
    await ctx.services.chat.prepareForChatbot(org.organisationId, { monthlyMessages: 1 }, theirs, ask('Hello?'));
    await expect(ctx.services.chat.prepareForChatbot(org.organisationId, { monthlyMessages: 1 }, theirs, ask('Hello?')))
      .rejects.toMatchObject({ statusCode: 402 });
    expect(await ctx.services.usage.messagesThisMonth(org.organisationId)).toBe(1);
  });
});
