import { AnalysisResultSchema, ConversationSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTextResource } from '../../../test/factories.js';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { insertChunk, waitForAnalysis } from './analysis-test-helpers.fixture.js';

const RESTRICT = 'Sorry, I can only answer questions about our shop.';

let ctx: TestContext;
let chatbotId: string;
beforeAll(async () => {
  ctx = await createTestContext({ env: { ANALYSIS_CUSTOM_FIELDS: 'email: The visitor\'s email address; budget: How much the visitor wants to spend' } });
  const resourceId = await insertTextResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'shop.txt');
  await insertChunk(ctx, resourceId, 'Our shop opening hours are 9am to 5pm on weekdays. We sell road bikes and mountain bikes.');
  chatbotId = (await ctx.api.post('/v1/chatbot').send({
    name: 'Shop', resourceIds: [resourceId], restrictAnswersToResourcesContentResponse: RESTRICT,
  }).expect(201)).body.id;
});
afterAll(async () => { await ctx?.close(); });

async function save(body: Record<string, unknown>) {
  return ConversationSchema.parse((await ctx.api.post('/v1/conversation').send({ chatbotId, ...body }).expect(201)).body);
}

describe('conversation analysis with the local analyser', () => {
  it('is PENDING after a save and reaches DONE once the worker runs', async () => {
    const { id } = await save({ messages: [
      { text: 'Hi! What are your opening hours?', fromUser: true },
      { text: 'Our shop opening hours are 9am to 5pm on weekdays.', fromUser: false },
      { text: 'Great, thanks, that is really helpful.', fromUser: true },
    ] });
    const pending = (await ctx.api.get(`/v1/conversation/${chatbotId}`).expect(200)).body.conversations.find((c: { id: string }) => c.id === id);
    expect(pending.analysis).toEqual({ status: 'PENDING' });
    expect(await ctx.services.jobs.pendingCount(['analyse-conversation'])).toBeGreaterThan(0);
    ctx.startJobs();
    const item = await waitForAnalysis(ctx, chatbotId, id);
    expect(item.analysis.status).toBe('DONE');
    const result = AnalysisResultSchema.parse(item.analysis.result);
    expect(result.summary).toContain('What are your opening hours?');
    expect(result.summary).toContain('9am to 5pm');
    expect(result.extractedData.sentimentAnalysis).toBe('positive');
    expect(result.extractedData.intentClassification).toBe('information');
    expect(result.extractedData.keyPoints.length).toBeGreaterThan(0);
    expect(result.unansweredQuestions).toEqual([]);
    expect(result.customExtractedData).toEqual({});
  });

  it('flags questions answered with the restrict text, with a refusal, or that the resources do not cover', async () => {
    const { id } = await save({ messages: [
      { text: 'Do you sell mountain bikes?', fromUser: true },
      { text: 'Yes, we sell road bikes and mountain bikes.', fromUser: false },
      { text: 'Can I pay with cryptocurrency?', fromUser: true },
      { text: RESTRICT, fromUser: false },
      { text: 'Do you sell mountain bikes in red?', fromUser: true },
      { text: 'I\'m not sure, I don\'t have that information.', fromUser: false },
      { text: 'What is the warranty period?', fromUser: true },
      { text: 'Please ask in the shop.', fromUser: false },
    ] });
    const item = await waitForAnalysis(ctx, chatbotId, id);
    expect(item.analysis.result?.unansweredQuestions).toEqual([
      'Can I pay with cryptocurrency?', 'Do you sell mountain bikes in red?', 'What is the warranty period?',
    ]);
    expect(item.analysis.result?.extractedData.nextSteps).toContain(
      'Add content to the chatbot\'s resources that answers: "Can I pay with cryptocurrency?"',
    );
  });

  it('extracts the operator\'s custom fields and classifies a complaint', async () => {
    const { id } = await save({ messages: [
      { text: 'My order arrived broken and I am very disappointed. I want a refund.', fromUser: true },
      { text: 'I am sorry to hear that.', fromUser: false },
      { text: 'My budget for a replacement is $1,200. Email me at jane.doe@example.com', fromUser: true },
    ] });
    const result = (await waitForAnalysis(ctx, chatbotId, id)).analysis.result!;
    expect(result.customExtractedData).toEqual({ email: 'jane.doe@example.com', budget: '$1,200' });
    expect(result.extractedData.sentimentAnalysis).toBe('negative');
    expect(result.extractedData.intentClassification).toBe('complaint');
    expect(result.extractedData.nextSteps).toEqual([
      'Contact the visitor at jane.doe@example.com.', 'Review the complaint and reply to the visitor.',
    ]);
  });

  it('re-analyses a conversation after it changes', async () => {
    const { id } = await save({ messages: [{ text: 'What are your opening hours?', fromUser: true }] });
    const first = await waitForAnalysis(ctx, chatbotId, id);
    expect(first.analysis.result?.summary).not.toContain('mountain');
    await save({ conversationId: id, override: false, messages: [{ text: 'Also, how much is a mountain bike?', fromUser: true }] });
    const stored = await ctx.database.db('conversations').where({ id }).first();
    expect(['PENDING', 'IN_PROGRESS', 'DONE']).toContain(stored.analysis_status);
    const deadline = Date.now() + 20_000;
    let summary = '';
    while (!summary.includes('mountain') && Date.now() < deadline) {
      summary = (await waitForAnalysis(ctx, chatbotId, id)).analysis.result?.summary ?? '';
    }
    expect(summary).toContain('how much is a mountain bike?');
    const second = await waitForAnalysis(ctx, chatbotId, id);
    expect(second.analysis.result?.extractedData.intentClassification).toBe('pricing');
  });

  it('analyses an empty conversation honestly', async () => {
    const { id } = await save({ messages: [] });
    const result = (await waitForAnalysis(ctx, chatbotId, id)).analysis.result!;
    expect(result).toEqual({
      summary: 'The conversation has no messages.',
      extractedData: { keyPoints: [], nextSteps: [], sentimentAnalysis: 'neutral', intentClassification: 'other' },
      customExtractedData: {}, unansweredQuestions: [],
    });
  });
});
