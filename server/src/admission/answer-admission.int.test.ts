import { ErrorBodySchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChunkedResource } from '../features/chat/chat-test-fixtures.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

let ctx: TestContext;
let chatbotId: string;

beforeAll(async () => {
  // One answer prepared at a time and no room to wait: a second question is refused at once.
  ctx = await createTestContext({ env: { ADMISSION_CONCURRENCY: '1', ADMISSION_QUEUE_LIMIT: '0' } });
  const resourceId = await insertChunkedResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'hours.txt', ['The shop opens at nine.']);
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Shop', resourceIds: [resourceId] })).body.id;
});
afterAll(async () => { await ctx?.close(); });

const ask = () => ({ chatbotId, conversation: [{ text: 'When does the shop open?', fromUser: true }] });

describe('answer admission', () => {
  it('answers 503 with Retry-After, before any stream byte and without counting the message, while the service is full', async () => {
    let release!: () => void;
    const held = ctx.services.admission.run({ organisationId: 'another', chatbotId: 'busy' }, () => new Promise<void>((resolve) => { release = resolve; }));
    const before = await ctx.services.usage.messagesThisMonth(ctx.org.organisationId);
    try {
      for (const path of ['/v1/chatbot/chat', '/v1/chatbot/chat-stream']) {
        const res = await ctx.api.post(path).send(ask());
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(ErrorBodySchema.parse(res.body).error).toBe('Service Unavailable');
      }
      expect(await ctx.services.usage.messagesThisMonth(ctx.org.organisationId)).toBe(before);
      expect((await ctx.anonymous.get('/health')).status).toBe(200);
    } finally {
      release();
      await held;
    }
    const answered = await ctx.api.post('/v1/chatbot/chat').send(ask());
    expect(answered.status).toBe(201);
    expect(answered.body.text).toContain('nine');
  });
});
