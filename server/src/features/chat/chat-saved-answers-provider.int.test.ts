import { ChatResponseSchema, QaResourceContentSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModelProvider } from '../../test/fakes/fake-model-provider.js';
import { requestParts } from '../../test/fakes/provider-request.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';
import { SHOP_FAQ, SHOP_RESTRICT } from './chat-test-fixtures.js';

/**
 * A saved answer with a provider model (a loopback OpenAI-compatible fake): the matched pair goes
 * to the model as the first passage, marked as the owner's answer, a restricted chatbot asks the
 * model rather than refusing, and the answer's sources name the pair even when the model cites nothing.
 */
let ctx: TestContext;
let fake: FakeModelProvider;
let qaId: string;
let pairId: string;
let chatbotId: string;

const ANSWER = 'Yes, a lift by the side door takes you to every floor.';

beforeAll(async () => {
  fake = await FakeModelProvider.start('openai');
  ctx = await createTestContext({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  const faq = await createResource(ctx.api, 'text', { name: 'Shop FAQ', content: SHOP_FAQ });
  qaId = (await createResource(ctx.api, 'qa', { name: 'Visitor questions', pairs: [{ questions: ['Is there a lift?'], answer: ANSWER }] })).id;
  for (const id of [faq.id, qaId]) expect((await waitForProcessing(ctx.api, id)).aiProcessingStatus).toBe('DONE');
  pairId = QaResourceContentSchema.parse((await ctx.api.get(`/v1/resource/qa/${qaId}`)).body).pairs[0]!.id;
  const res = await ctx.api.post('/v1/chatbot').send({
    name: 'Willow & Wick', model: 'alpha-5-mini', resourceIds: [faq.id, qaId], restrictAnswersToResourcesContentResponse: SHOP_RESTRICT,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  chatbotId = res.body.id;
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe('a saved answer with a provider model', () => {
  it('is the first passage, marked as the owner\'s answer, and the answer cites the pair', async () => {
    fake.reply = { deltas: ['Yes, there is a lift', ' by the side door.'] };
    const before = fake.requests.length;
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text: 'Is there a lift', fromUser: true }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const answer = ChatResponseSchema.parse(res.body);
    expect(answer.text).toBe('Yes, there is a lift by the side door.');
    expect(answer.refused).toBeUndefined();
    expect(answer.sources?.[0]).toEqual({ resourceId: qaId, title: 'Visitor questions', section: 'Is there a lift?', pairId, snippet: ANSWER });
    expect(fake.requests.length).toBe(before + 1);
    const { system } = requestParts('openai', fake.requests.at(-1)!.body);
    expect(system).toContain('Passage [1] is the owner\'s own answer to this question: answer with it');
    expect(system).toContain(`[1] (source: Visitor questions › Is there a lift? (the owner's saved answer))\n${ANSWER}`);
    // The pair is not given twice when retrieval finds its passage too.
    expect(system.split(ANSWER).length).toBe(2);
  });

  it('still refuses a question nothing answers, without calling the model', async () => {
    const before = fake.requests.length;
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text: 'What is the capital of Peru?', fromUser: true }] });
    expect(res.body).toEqual({ text: SHOP_RESTRICT, sources: [], refused: true });
    expect(fake.requests.length).toBe(before);
  });
});
