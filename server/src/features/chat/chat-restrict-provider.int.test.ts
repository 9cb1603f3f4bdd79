import { ChatResponseSchema, decodeEvents, type StreamingEvent } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModelProvider } from '../../test/fakes/fake-model-provider.js';
import { requestParts } from '../../test/fakes/provider-request.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';
import { joinDeltas, postEventStream, SHOP_FAQ, SHOP_RESTRICT, SHOP_SITE } from './chat-test-fixtures.js';

/**
 * The restrict rule with a provider model (a loopback OpenAI-compatible fake): the model decides
 * from the passages, an answer that is the restrict text with decoration is sent as exactly the
 * text, only an empty retrieval is refused without a model call, and conversation is never refused.
 */
let ctx: TestContext;
let fake: FakeModelProvider;
let faqId: string;
let chatbotId: string;

const RESTRICT = SHOP_RESTRICT;
const RULE = `When the context does not contain the answer, reply exactly: ${JSON.stringify(RESTRICT)}`;
const SITE = SHOP_SITE;
const FAQ = SHOP_FAQ;
const ask = (text: string) => [{ text, fromUser: true }];

beforeAll(async () => {
  fake = await FakeModelProvider.start('openai');
  ctx = await createTestContext({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl } });
  ctx.startJobs();
  faqId = (await createResource(ctx.api, 'text', { name: 'Shop FAQ', content: FAQ })).id;
  expect((await waitForProcessing(ctx.api, faqId)).aiProcessingStatus).toBe('DONE');
  const res = await ctx.api.post('/v1/chatbot').send({
    name: 'Willow & Wick', model: 'alpha-5-mini', resourceIds: [faqId], restrictAnswersToResourcesContentResponse: RESTRICT,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  chatbotId = res.body.id;
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const plain = async (question: string) => {
  const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: ask(question) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ChatResponseSchema.parse(res.body);
};
const streamed = async (question: string) => {
  const result = await postEventStream(`${ctx.url}/v1/chatbot/chat-stream`, ctx.org.apiKey, { chatbotId, conversation: ask(question) });
  expect(result.status).toBe(201);
  return result.events;
};
const embedded = async (question: string) => {
  const res = await ctx.anonymous.post(`/v1/embed/${chatbotId}/chat-stream`).set('Origin', SITE).send({ conversation: ask(question) });
  expect(res.status, res.text).toBe(201);
  return decodeEvents(res.text);
};
const endOf = (events: readonly StreamingEvent[]) => events.at(-1);
/** The system prompt of the model request made since `before` (exactly one). */
const promptSince = (before: number) => {
  expect(fake.requests.length).toBe(before + 1);
  return requestParts('openai', fake.requests.at(-1)!.body).system;
};

describe('a question under the restrict rule goes to the provider model with its passages', () => {
  it('sends the passages for a paraphrased question, and cites the passage its [1] marks', async () => {
    // Only "order" is shared with the knowledge; retrieval finds the passage, the model judges it.
    const question = 'How long until my order arrives in Berlin?';
    expect((await ctx.services.resources.retrieve(ctx.org.organisationId, [faqId], question, 5)).length).toBeGreaterThan(0);
    fake.reply = { deltas: ['Orders reach Germany', ' within 3 working days [1].'] };
    const before = fake.requests.length;
    const answer = await plain(question);
    const system = promptSince(before);
    expect(system).toContain(RULE);
    expect(system).toContain('Orders reach Germany and France within 3 working days.');
    expect(answer).toEqual({
      text: 'Orders reach Germany within 3 working days [1].',
      sources: [{ resourceId: faqId, title: 'Shop FAQ', section: 'FAQ › Delivery', snippet: expect.stringContaining('Orders reach Germany and France') }],
    });
  });

  it('sends exactly the restrict text when the model answers it with quotes, markup and a citation, plain and streamed', async () => {
    const question = 'Do you ship parcels to Sydney?';
    const decorated = ['"**Sorry, I can', ' only answer questions', ' about Willow & Wick.**', ' [1]"'];
    fake.reply = { deltas: decorated };
    let before = fake.requests.length;
    expect(await plain(question)).toEqual({ text: RESTRICT, sources: [], refused: true });
    expect(promptSince(before)).toContain('We post parcels to every country of the European Union.');
    for (const stream of [streamed, embedded]) {
      before = fake.requests.length;
      const events = await stream(question);
      expect(fake.requests.length).toBe(before + 1);
      expect(joinDeltas(events)).toBe(RESTRICT);
      expect(events.filter((event) => event.type === 'partialResponse').every((event) => event.type === 'partialResponse' && RESTRICT.startsWith(event.data.text))).toBe(true);
      expect(endOf(events)).toEqual({ type: 'streamEnd', data: { sources: [], refused: true } });
    }
  });

  it('passes an answer that only starts like the restrict text through unchanged', async () => {
    const deltas = ['Sorry, I can only', ' answer questions about Willow & Wick.', ' But parcels to Sydney are on their way too [1].'];
    fake.reply = { deltas };
    const events = await streamed('Do you ship parcels to Sydney?');
    expect(joinDeltas(events)).toBe(deltas.join(''));
    expect(endOf(events)).toEqual({ type: 'streamEnd', data: { sources: [expect.objectContaining({ resourceId: faqId, section: 'FAQ › Delivery' })] } });
  });

  it('answers the restrict text without calling the model when retrieval finds no passage', async () => {
    const question = 'Which vaccines does a kitten need?';
    expect(await ctx.services.resources.retrieve(ctx.org.organisationId, [faqId], question, 5)).toEqual([]);
    const before = fake.requests.length;
    expect(await plain(question)).toEqual({ text: RESTRICT, sources: [], refused: true });
    expect(await embedded(question)).toEqual([{ type: 'partialResponse', data: { text: RESTRICT } }, { type: 'streamEnd', data: { sources: [], refused: true } }]);
    expect(fake.requests.length).toBe(before);
  });
});

describe('conversation under the restrict rule with a provider model', () => {
  it.each([
    ['Hello', 'Hello! What would you like to know?'],
    ['thank you', 'You are welcome.'],
    ['ok', 'Anything else I can help with?'],
    ['connect me to a human please', 'Leave your e-mail and the team will contact you.'],
  ])('lets the model answer "%s" without context, never refused', async (message, reply) => {
    fake.reply = { deltas: [reply] };
    const before = fake.requests.length;
    const answer = await plain(message);
    const system = promptSince(before);
    // Conversation is not searched: the model gets no passage, and the rule for conversation.
    expect(system).toContain('Context: none was found for this question.');
    expect(system).toContain('requests to talk to a person are conversation');
    expect(answer).toEqual({ text: reply, sources: [], ...(message === 'connect me to a human please' ? { handoff: true } : {}) });
  });

  it('lets the model answer conversation put in more words than a greeting when nothing is retrieved', async () => {
    const message = "I'd rather just speak to a person";
    expect(await ctx.services.resources.retrieve(ctx.org.organisationId, [faqId], message, 5)).toEqual([]);
    fake.reply = { deltas: ['Leave your e-mail and the team will contact you.'] };
    const before = fake.requests.length;
    expect(await plain(message)).toEqual({ text: 'Leave your e-mail and the team will contact you.', sources: [], handoff: true });
    expect(promptSince(before)).toContain('Context: none was found for this question.');
  });

  it('flags the handoff in streamEnd for the API\'s and the embed API\'s streams', async () => {
    fake.reply = { deltas: ['Leave your e-mail', ' and the team will contact you.'] };
    for (const events of [await streamed('connect me to a human please'), await embedded('connect me to a human please')]) {
      expect(joinDeltas(events)).toBe('Leave your e-mail and the team will contact you.');
      expect(endOf(events)).toEqual({ type: 'streamEnd', data: { sources: [], handoff: true } });
    }
  });
});
