import { ConversationSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { waitForAnalysis } from './analysis-test-helpers.fixture.js';
import { startFakeOpenAi, type FakeCompletionRequest, type FakeReply } from './fake-openai.fixture.js';

type Fake = Awaited<ReturnType<typeof startFakeOpenAi>>;

const analysis = (summary: string, extra: Record<string, unknown> = {}) => JSON.stringify({
  summary, keyPoints: ['The visitor asked about delivery.'], nextSteps: ['Send the delivery times.'],
  sentimentAnalysis: 'neutral', intentClassification: 'information',
  customExtractedData: { company: 'Acme Ltd', budget: null }, ...extra,
});

/** The test decides each reply; by default a valid analysis naming how many messages it saw. */
let replyWith: (request: FakeCompletionRequest) => Promise<FakeReply> | FakeReply;
const transcriptOf = (request: FakeCompletionRequest) => request.body.messages.map((message) => message.content).join('\n');

let fake: Fake;
let ctx: TestContext;
let chatbotId: string;
beforeAll(async () => {
  fake = await startFakeOpenAi((request) => replyWith(request));
  ctx = await createTestContext({ env: {
    OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1`,
    ANALYSIS_CUSTOM_FIELDS: '{"company": "The company the visitor works for", "budget": "The visitor\'s budget"}',
  } });
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Delivery', model: 'alpha-4o-mini' }).expect(201)).body.id;
  ctx.startJobs();
});
afterAll(async () => { await ctx?.close(); await fake?.close(); });

async function save(body: Record<string, unknown>) {
  return ConversationSchema.parse((await ctx.api.post('/v1/conversation').send({ chatbotId, ...body }).expect(201)).body);
}

describe('conversation analysis with the chatbot\'s model', () => {
  it('asks the model for structured output and stores its validated answer', async () => {
    replyWith = () => ({ content: analysis('The visitor asked when a parcel arrives.') });
    const before = fake.requests.length;
    const { id } = await save({ messages: [
      { text: 'I work at Acme Ltd. When does my parcel arrive?', fromUser: true },
      { text: 'Parcels arrive within 3 days.', fromUser: false },
    ] });
    const item = await waitForAnalysis(ctx, chatbotId, id);
    expect(item.analysis).toEqual({ status: 'DONE', result: {
      summary: 'The visitor asked when a parcel arrives.',
      extractedData: {
        keyPoints: ['The visitor asked about delivery.'], nextSteps: ['Send the delivery times.'],
        sentimentAnalysis: 'neutral', intentClassification: 'information',
      },
      customExtractedData: { company: 'Acme Ltd' }, unansweredQuestions: [],
    } });
    const request = fake.requests[before]!;
    expect(request.body.model).toBe('gpt-4o-mini');
    expect(transcriptOf(request)).toContain('Visitor: I work at Acme Ltd. When does my parcel arrive?\n\nChatbot: Parcels arrive within 3 days.');
    expect(JSON.stringify(request.body.response_format)).toContain('customExtractedData');
    expect(JSON.stringify(request.body.response_format)).toContain('The company the visitor works for');
  });

  it('keeps a save made during the analysis: the obsolete result is dropped and the re-analysis wins', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => { arrived = resolve; });
    replyWith = async (request) => {
      if (!transcriptOf(request).includes('And to Norway?')) {
        arrived();
        await held;
        return { content: analysis('FIRST VERSION') };
      }
      return { content: analysis('SECOND VERSION') };
    };
    const { id } = await save({ messages: [{ text: 'Do you deliver to Sweden?', fromUser: true }] });
    await firstArrived;
    const inFlight = await ctx.database.db('conversations').where({ id }).first();
    expect(inFlight.analysis_status).toBe('IN_PROGRESS');
    await save({ conversationId: id, override: false, messages: [{ text: 'And to Norway?', fromUser: true }] });
    // The save's analysis runs in the second worker slot while the first one is still held.
    const second = await waitForAnalysis(ctx, chatbotId, id, ['DONE']);
    expect(second.analysis.result?.summary).toBe('SECOND VERSION');
    release();
    await waitForJobs();
    const final = await ctx.database.db('conversations').where({ id }).first();
    expect(final.analysis_status).toBe('DONE');
    expect(final.analysis_result.summary).toBe('SECOND VERSION');
    expect(final.updated_at).toBeGreaterThan(inFlight.updated_at);
  });

  it('retries after provider errors and then reaches DONE', { timeout: 60_000 }, async () => {
    let failures = 0;
    replyWith = () => (failures++ < 2 ? { status: 500 } : { content: analysis('Recovered.') });
    const { id } = await save({ messages: [{ text: 'Is anyone there?', fromUser: true }] });
    const item = await waitForAnalysis(ctx, chatbotId, id, ['DONE', 'FAILED'], 45_000);
    expect(item.analysis.status).toBe('DONE');
    expect(item.analysis.result?.summary).toBe('Recovered.');
    expect(failures).toBeGreaterThanOrEqual(3);
  });

  it('marks the analysis FAILED when the model keeps answering invalid output', { timeout: 60_000 }, async () => {
    replyWith = () => ({ content: '{"summary": 42}' });
    const { id } = await save({ messages: [{ text: 'Hello?', fromUser: true }] });
    const item = await waitForAnalysis(ctx, chatbotId, id, ['FAILED', 'DONE'], 45_000);
    expect(item.analysis).toEqual({ status: 'FAILED' });
    // The analysis is marked FAILED inside the job, just before the worker records the job's last failure.
    const job = () => ctx.database.db('jobs').where({ kind: 'analyse-conversation' }).whereRaw("payload->>'conversationId' = ?", [id]).first();
    await expect.poll(job, { timeout: 5_000 }).toMatchObject({ status: 'failed', attempts: 3 });
  });
});

async function waitForJobs(): Promise<void> {
  const deadline = Date.now() + 25_000;
  while (await ctx.services.jobs.pendingCount(['analyse-conversation']) > 0) {
    if (Date.now() > deadline) throw new Error('analysis jobs still pending');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
