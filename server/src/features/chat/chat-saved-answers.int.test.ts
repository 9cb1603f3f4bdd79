import { ChatResponseSchema, QaPairSchema, QaResourceContentSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';
import { joinDeltas, postEventStream } from './chat-test-fixtures.js';

/**
 * Saved answers end to end through the API, answered by the built-in engine with its sentence
 * encoder: a restricted chatbot whose knowledge never mentions parking answers questions about
 * parking with the owner's saved answer, citing the pair, and refuses again once the pair is gone.
 */
let ctx: TestContext;
let qaId: string;
let pairId: string;
let chatbotId: string;

const RESTRICT = 'Sorry, I can only help with questions about Willow & Wick candles.';
const ANSWER = 'Park for free in the Mill Lane car park behind the shop.';
const CANDLES = 'Willow & Wick pours soy wax candles by hand. Trim the wick to 5 mm before every burn, and let the wax melt to the edge the first time.';

const ask = async (question: string) => {
  const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text: question, fromUser: true }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ChatResponseSchema.parse(res.body);
};

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOCAL_SENTENCE_ENCODER: 'true', RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  const text = await createResource(ctx.api, 'text', { name: 'Candle care', content: CANDLES });
  const qa = await createResource(ctx.api, 'qa', { name: 'Visitor questions', pairs: [{ questions: ['Where can I park?'], answer: ANSWER }] });
  expect(qa).toMatchObject({ type: 'QA', fileName: 'Visitor questions', aiProcessingStatus: 'NOT_STARTED', tags: [] });
  qaId = qa.id;
  for (const id of [text.id, qaId]) expect((await waitForProcessing(ctx.api, id, 60_000)).aiProcessingStatus).toBe('DONE');
  const content = QaResourceContentSchema.parse((await ctx.api.get(`/v1/resource/qa/${qaId}`)).body);
  pairId = content.pairs[0]!.id;
  const chatbot = await ctx.api.post('/v1/chatbot').send({ name: 'Willow & Wick', resourceIds: [text.id, qaId], restrictAnswersToResourcesContentResponse: RESTRICT });
  expect(chatbot.status, JSON.stringify(chatbot.body)).toBe(201);
  chatbotId = chatbot.body.id;
}, 120_000);
afterAll(async () => { await ctx?.close(); });

describe('a saved answer in a restricted chatbot', () => {
  it.each(['Where can I park?', 'where do I leave my car', 'is there parking nearby?'])('answers "%s" with the saved answer as written, citing the pair', async (question) => {
    const res = await ask(question);
    expect(res.text).toBe(ANSWER);
    expect(res.refused).toBeUndefined();
    expect(res.sources).toEqual([{ resourceId: qaId, title: 'Visitor questions', section: 'Where can I park?', pairId, snippet: ANSWER }]);
  });

  it('streams the saved answer and names the pair in streamEnd', async () => {
    const result = await postEventStream(`${ctx.url}/v1/chatbot/chat-stream`, ctx.org.apiKey, { chatbotId, conversation: [{ text: 'where do I leave my car', fromUser: true }] });
    expect(result.status).toBe(201);
    expect(joinDeltas(result.events)).toBe(ANSWER);
    const end = result.events.at(-1);
    expect(end?.type === 'streamEnd' && end.data?.sources?.map((source) => source.pairId)).toEqual([pairId]);
  });

  it('still answers an off-topic question with exactly the restrict text', async () => {
    const res = await ask('Do you sell birthday cakes?');
    expect(res).toEqual({ text: RESTRICT, sources: [], refused: true });
  });

  it('refuses again once the pair is deleted and the resource re-indexed', async () => {
    const removed = await ctx.api.delete(`/v1/resource/qa/${qaId}/pairs/${pairId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(QaPairSchema.parse(removed.body)).toEqual({ id: pairId, questions: ['Where can I park?'], answer: ANSWER });
    expect((await waitForProcessing(ctx.api, qaId, 60_000)).aiProcessingStatus).toBe('DONE');
    for (const question of ['where do I leave my car', 'Where can I park?']) {
      expect(await ask(question)).toEqual({ text: RESTRICT, sources: [], refused: true });
    }
  });
});
