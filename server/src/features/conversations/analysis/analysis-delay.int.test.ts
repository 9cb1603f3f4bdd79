import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { waitForAnalysis } from './analysis-test-helpers.fixture.js';

let ctx: TestContext;
let chatbotId: string;
beforeAll(async () => {
  ctx = await createTestContext({ env: { ANALYSIS_DELAY_MS: '600000' } });
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Delayed' }).expect(201)).body.id;
});
afterAll(async () => { await ctx?.close(); });

describe('ANALYSIS_DELAY_MS', () => {
  it('holds the analysis back and lets a burst of saves share one job', async () => {
    const before = Date.now();
    const { id } = (await ctx.api.post('/v1/conversation').send({ chatbotId, messages: [{ text: 'First?', fromUser: true }] }).expect(201)).body;
    for (const text of ['Second?', 'Third?']) {
      await ctx.api.post('/v1/conversation').send({ chatbotId, conversationId: id, override: false, messages: [{ text, fromUser: true }] }).expect(201);
    }
    const jobs = await ctx.database.db('jobs').where({ kind: 'analyse-conversation' }).whereRaw("payload->>'conversationId' = ?", [id]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].run_at).toBeGreaterThanOrEqual(before + 600_000);
    ctx.startJobs();
    // Not due yet: the worker leaves it queued. Then make it due, as the clock would.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await ctx.database.db('conversations').where({ id }).first()).analysis_status).toBe('PENDING');
    await ctx.database.db('jobs').where({ id: jobs[0].id }).update({ run_at: Date.now() });
    ctx.services.worker.notify();
    const item = await waitForAnalysis(ctx, chatbotId, id);
    expect(item.analysis.status).toBe('DONE');
    expect(item.analysis.result?.extractedData.keyPoints).toEqual(['Visitor: First?', 'Visitor: Second?', 'Visitor: Third?']);
  });
});
