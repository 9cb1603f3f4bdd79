import { ChatbotSchema, ChatResponseSchema, KnowledgeGapListSchema, ResourceSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';

/**
 * "Add text that answers it" (issue 33): the text written for a knowledge gap is attached to the
 * chatbot whose gap it is, the gap closes, and the same question is then answered from the text.
 */
let ctx: TestContext;
let chatbotId: string;
const RESTRICT = 'Sorry, I can only answer questions about the pottery studio.';
const STUDIO = 'The pottery studio is open from Tuesday to Saturday, 10am to 6pm. Beginners\' wheel classes run on Wednesday evenings.';
const QUESTION = 'Can I hire the studio for a birthday party?';
const ANSWER_TEXT = 'Birthday parties. You can hire the whole studio for a birthday party on Sunday afternoons: up to twelve guests paint a mug each, '
  + 'and the party costs £180 including glazing and firing.';

async function insertAnalysedConversation(question: string): Promise<string> {
  const at = Date.now() - 60_000;
  const id = newId(at);
  const analysis = {
    summary: 's', customExtractedData: {}, unansweredQuestions: [question],
    extractedData: { keyPoints: [], nextSteps: [], sentimentAnalysis: 'neutral', intentClassification: 'other' },
  };
  await ctx.database.db('conversations').insert({
    id, organisation_id: ctx.org.organisationId, chatbot_id: chatbotId, created_at: at, updated_at: at + 1000,
    messages: JSON.stringify([{ text: question, fromUser: true }, { text: RESTRICT, fromUser: false }]),
    source_type: 'website', source: JSON.stringify({ type: 'website' }), analysis_status: 'DONE', analysis_result: JSON.stringify(analysis),
  });
  return id;
}

const chat = async (text: string) => ChatResponseSchema.parse(
  (await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text, fromUser: true }] }).expect(201)).body,
);
const gaps = async () => KnowledgeGapListSchema.parse((await ctx.api.get(`/v1/chatbot/${chatbotId}/gaps`).expect(200)).body).gaps;
const resourceCount = async () => (await ctx.api.get('/v1/resource/all').expect(200)).body.length as number;

beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  const studio = await createResource(ctx.api, 'text', { name: 'Studio', content: STUDIO });
  expect((await waitForProcessing(ctx.api, studio.id, 30_000)).aiProcessingStatus).toBe('DONE');
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Studio', resourceIds: [studio.id], restrictAnswersToResourcesContentResponse: RESTRICT })
    .expect(201)).body.id;
}, 60_000);
afterAll(async () => { await ctx?.close(); });

describe('POST /v1/chatbot/{id}/texts', () => {
  it('attaches the text to the chatbot, closes the gap, and the same question is then answered from it', async () => {
    expect(await chat(QUESTION)).toEqual({ text: RESTRICT, sources: [], refused: true });
    await insertAnalysedConversation(QUESTION);
    const [gap] = await gaps();
    expect(gap).toMatchObject({ question: QUESTION });

    const res = await ctx.api.post(`/v1/chatbot/${chatbotId}/texts`).send({ name: QUESTION, content: ANSWER_TEXT, tags: ['gap'], gapId: gap!.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const resource = ResourceSchema.parse(res.body);
    expect(resource).toMatchObject({ type: 'TEXT', fileName: QUESTION, tags: ['gap'] });
    const chatbot = ChatbotSchema.parse((await ctx.api.get(`/v1/chatbot/${chatbotId}`).expect(200)).body);
    expect(chatbot.resources).toContain(resource.id);
    expect(await gaps()).toEqual([]);

    expect((await waitForProcessing(ctx.api, resource.id, 30_000)).aiProcessingStatus).toBe('DONE');
    const answer = await chat(QUESTION);
    expect(answer.refused).toBeUndefined();
    expect(answer.text).toContain('£180');
    expect((answer.sources ?? []).map((source) => source.resourceId)).toContain(resource.id);
  });

  it('answers 404 for another organisation\'s chatbot or none, and 400 in the contract\'s shape for bad input, creating nothing', async () => {
    const before = await resourceCount();
    const other = await ctx.newOrganisation();
    const body = { name: 'Opening hours', content: 'Open every day.' };
    const foreign = await other.api.post(`/v1/chatbot/${chatbotId}/texts`).send(body).expect(404);
    expect(foreign.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    await ctx.api.post(`/v1/chatbot/${ABSENT_ID}/texts`).send(body).expect(404);
    for (const [bad, message] of [
      [{ name: 'x', content: '' }, 'content must not be empty'],
      [{ name: ' ', content: 'text' }, 'name must not be empty'],
      [{ ...body, colour: 'red' }, 'property colour should not exist'],
      [{ ...body, gapId: 'nope' }, 'gapId must be a 24-character'],
    ] as const) {
      const res = await ctx.api.post(`/v1/chatbot/${chatbotId}/texts`).send(bad).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(JSON.stringify(res.body.message)).toContain(message);
    }
    expect(await resourceCount()).toBe(before);
  });
});
