import { ChatbotSchema, ChatResponseSchema, GapDismissalSchema, KnowledgeGapListSchema, QaResourceContentSchema, SavedAnswerSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';

let ctx: TestContext;
let chatbotId: string;
let refundsId: string;
const T0 = Date.UTC(2026, 0, 5, 9, 30);
const RESTRICT = 'Sorry, I can only answer questions about our shop.';
const REFUNDS = 'Refunds go back the way you paid, within five working days. We refund orders returned unused.';

/** Inserts an analysed conversation at a chosen time (saves always stamp now) with its unanswered questions. */
async function insertConversation(at: number, unanswered: string[], chatbot = chatbotId): Promise<string> {
  const id = newId(at);
  const analysis = {
    summary: 's', customExtractedData: {}, unansweredQuestions: unanswered,
    extractedData: { keyPoints: [], nextSteps: [], sentimentAnalysis: 'neutral', intentClassification: 'other' },
  };
  await ctx.database.db('conversations').insert({
    id, organisation_id: ctx.org.organisationId, chatbot_id: chatbot, created_at: at, updated_at: at + 1000,
    messages: JSON.stringify(unanswered.flatMap((text) => [{ text, fromUser: true }, { text: RESTRICT, fromUser: false }])),
    source_type: 'website', source: JSON.stringify({ type: 'website' }), analysis_status: 'DONE', analysis_result: JSON.stringify(analysis),
  });
  return id;
}

const listGaps = async (query = '') => KnowledgeGapListSchema.parse((await ctx.api.get(`/v1/chatbot/${chatbotId}/gaps${query}`).expect(200)).body);

const ids: string[] = [];
beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  const refunds = await createResource(ctx.api, 'text', { name: 'Refunds', content: REFUNDS });
  refundsId = refunds.id;
  expect((await waitForProcessing(ctx.api, refundsId, 30_000)).aiProcessingStatus).toBe('DONE');
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Shop', resourceIds: [refundsId], restrictAnswersToResourcesContentResponse: RESTRICT }).expect(201)).body.id;
  ids.push(await insertConversation(T0, ['Do you sell gift cards?']));
  ids.push(await insertConversation(T0 + 60_000, ['do you sell GIFT cards', 'How long does a refund take to arrive?']));
  ids.push(await insertConversation(T0 + 120_000, ['Do you sell a gift card?!']));
}, 60_000);
afterAll(async () => { await ctx?.close(); });

describe('GET /v1/chatbot/{id}/gaps', () => {
  it('groups near-duplicate questions with a count, the last time asked and example conversations, on-topic first', async () => {
    const list = await listGaps();
    expect(list.grouping).toBe('words');
    expect(list.gaps).toHaveLength(2);
    const [refund, giftCards] = list.gaps;
    expect(refund).toMatchObject({ question: 'How long does a refund take to arrive?', count: 1, offTopic: false, conversationIds: [ids[1]] });
    expect(giftCards).toMatchObject({ count: 3, lastAskedAt: T0 + 121_000, offTopic: true, conversationIds: [ids[2], ids[1], ids[0]] });
    // "Do you sell gift cards?" and "do you sell GIFT cards" are one phrasing, spelled as first asked.
    expect(giftCards!.questions).toEqual(['Do you sell gift cards?', 'Do you sell a gift card?!']);
    expect(giftCards!.question).toBe('Do you sell gift cards?');
    expect((await listGaps()).gaps.map((gap) => gap.id)).toEqual(list.gaps.map((gap) => gap.id));
  });

  it('keeps to the range, and to the chatbot', async () => {
    expect((await listGaps(`?start=${T0 + 90_000}`)).gaps).toMatchObject([{ count: 1, conversationIds: [ids[2]] }]);
    const other = (await ctx.api.post('/v1/chatbot').send({ name: 'Other' }).expect(201)).body.id as string;
    expect(KnowledgeGapListSchema.parse((await ctx.api.get(`/v1/chatbot/${other}/gaps`).expect(200)).body).gaps).toEqual([]);
  });

  it('answers 404 for another organisation\'s chatbot and 400 in the contract\'s shape for bad input', async () => {
    const other = await ctx.newOrganisation();
    for (const [method, path] of [['get', 'gaps'], ['post', `gaps/${ABSENT_ID}/dismiss`]] as const) {
      const res = await other.api[method](`/v1/chatbot/${chatbotId}/${path}`).expect(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      await ctx.api[method](`/v1/chatbot/${ABSENT_ID}/${path}`).expect(404);
    }
    await other.api.post(`/v1/chatbot/${chatbotId}/saved-answers`).send({ questions: ['q?'], answer: 'a' }).expect(404);
    for (const [path, message] of [
      ['/v1/chatbot/nope/gaps', 'id must be a 24-character'],
      [`/v1/chatbot/${chatbotId}/gaps?start=x`, 'start must be an integer number of Unix milliseconds'],
      [`/v1/chatbot/${chatbotId}/gaps?colour=red`, 'property colour should not exist'],
    ]) {
      const res = await ctx.api.get(path!).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect((res.body.message as string[]).join(' ')).toContain(message);
    }
    const badGap = await ctx.api.post(`/v1/chatbot/${chatbotId}/gaps/XYZ/dismiss`).expect(400);
    expect(badGap.body.message.join(' ')).toContain('gapId');
  });
});

describe('POST /v1/chatbot/{id}/gaps/{gapId}/dismiss', () => {
  it('hides the gap until a conversation started after the dismissal asks it again', async () => {
    const gift = (await listGaps()).gaps.find((gap) => gap.offTopic)!;
    const dismissal = GapDismissalSchema.parse((await ctx.api.post(`/v1/chatbot/${chatbotId}/gaps/${gift.id}/dismiss`).expect(200)).body);
    expect(dismissal.id).toBe(gift.id);
    expect((await listGaps()).gaps.map((gap) => gap.id)).not.toContain(gift.id);
    await insertConversation(dismissal.dismissedAt + 1, ['Do you sell gift-cards?']);
    const reopened = (await listGaps()).gaps.find((gap) => gap.id === gift.id);
    expect(reopened).toMatchObject({ count: 4, lastAskedAt: dismissal.dismissedAt + 1001 });
  });
});

describe('POST /v1/chatbot/{id}/saved-answers', () => {
  const answer = 'Yes: gift cards from 10 to 200 pounds, in the shop or online.';

  it('creates the chatbot\'s saved-answers resource and attaches it, closes the gap, and the chatbot answers with it', async () => {
    const gift = (await listGaps()).gaps.find((gap) => gap.offTopic)!;
    const ask = async () => ChatResponseSchema.parse((await ctx.api.post('/v1/chatbot/chat')
      .send({ chatbotId, conversation: [{ text: 'Do you sell gift cards?', fromUser: true }] }).expect(201)).body).text;
    expect(await ask()).toBe(RESTRICT);

    const res = await ctx.api.post(`/v1/chatbot/${chatbotId}/saved-answers`).send({ questions: ['Do you sell gift cards?', 'Can I buy a voucher?'], answer, gapId: gift.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const saved = SavedAnswerSchema.parse(res.body);
    expect(saved).toMatchObject({ resourceCreated: true, pair: { questions: ['Do you sell gift cards?', 'Can I buy a voucher?'], answer } });
    expect(saved.resource).toMatchObject({ type: 'QA', fileName: 'Shop — saved answers' });
    const chatbot = ChatbotSchema.parse((await ctx.api.get(`/v1/chatbot/${chatbotId}`).expect(200)).body);
    expect(chatbot.resources).toEqual([refundsId, saved.resource.id]);
    expect((await listGaps()).gaps.map((gap) => gap.id)).not.toContain(gift.id);

    expect((await waitForProcessing(ctx.api, saved.resource.id, 30_000)).aiProcessingStatus).toBe('DONE');
    expect(await ask()).toBe(answer);
  });

  it('adds later answers to the same resource, attaches it again when the owner removed it, and closes gaps asked in the same words', async () => {
    expect((await listGaps()).gaps.map((gap) => gap.question)).toEqual(['How long does a refund take to arrive?']);
    await ctx.api.put(`/v1/chatbot/${chatbotId}`).send({ resourceIds: [refundsId] }).expect(200);
    const saved = SavedAnswerSchema.parse((await ctx.api.post(`/v1/chatbot/${chatbotId}/saved-answers`)
      .send({ questions: ['How long does a refund take?', 'how long does a refund take to arrive'], answer: 'Five working days.' }).expect(201)).body);
    expect(saved.resourceCreated).toBe(false);
    expect((await listGaps()).gaps).toEqual([]);
    const content = QaResourceContentSchema.parse((await ctx.api.get(`/v1/resource/qa/${saved.resource.id}`).expect(200)).body);
    expect(content.pairs.map((pair) => pair.answer)).toEqual([answer, 'Five working days.']);
    expect(content.pairs[1]!.id).toBe(saved.pair.id);
    expect(ChatbotSchema.parse((await ctx.api.get(`/v1/chatbot/${chatbotId}`).expect(200)).body).resources).toEqual([refundsId, saved.resource.id]);
  });

  it.each([
    ['no questions', { answer: 'a' }, 'questions'],
    ['an empty answer', { questions: ['q?'], answer: ' ' }, 'answer must not be empty'],
    ['an unknown field', { questions: ['q?'], answer: 'a', colour: 'red' }, 'property colour should not exist'],
    ['a malformed gapId', { questions: ['q?'], answer: 'a', gapId: 'x' }, 'gapId'],
  ])('answers 400 in the contract\'s shape for %s', async (_case, body, message) => {
    const res = await ctx.api.post(`/v1/chatbot/${chatbotId}/saved-answers`).send(body).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect((res.body.message as string[]).join(' ')).toContain(message);
  });
});

describe('GET /v1/chatbot/{id}/gaps with the built-in sentence encoder', () => {
  it('groups by meaning questions that keep each other\'s words, and keeps apart those that swap one', async () => {
    const withEncoder = await createTestContext({ env: { LOCAL_SENTENCE_ENCODER: 'true' } });
    try {
      const id = (await withEncoder.api.post('/v1/chatbot').send({ name: 'Encoded' }).expect(201)).body.id as string;
      const insert = (at: number, unanswered: string[]) => withEncoder.database.db('conversations').insert({
        id: newId(at), organisation_id: withEncoder.org.organisationId, chatbot_id: id, created_at: at, updated_at: at,
        messages: JSON.stringify([{ text: unanswered[0], fromUser: true }]), source_type: 'website', source: JSON.stringify({ type: 'website' }),
        analysis_status: 'DONE', analysis_result: JSON.stringify({ summary: 's', customExtractedData: {}, unansweredQuestions: unanswered,
          extractedData: { keyPoints: [], nextSteps: [], sentimentAnalysis: 'neutral', intentClassification: 'other' } }),
      });
      await insert(T0, ['Is there a student discount?', 'Do you deliver on Sundays?']);
      await insert(T0 + 1, ['Do students get a discount?', 'Do you deliver on Saturdays?']);
      const list = KnowledgeGapListSchema.parse((await withEncoder.api.get(`/v1/chatbot/${id}/gaps`).expect(200)).body);
      expect(list.grouping).toBe('meaning');
      expect(list.gaps.map((gap) => gap.questions.length).sort()).toEqual([1, 1, 2]);
      expect(list.gaps.find((gap) => gap.count === 2)!.questions).toEqual(expect.arrayContaining(['Is there a student discount?', 'Do students get a discount?']));
    } finally {
      await withEncoder.close();
    }
  }, 60_000);
});
