import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

describe('GET /health/ready', () => {
  it('answers 503 with Retry-After until the instance has warmed up, while /health answers at once', async () => {
    const warming = await ctx.anonymous.get('/health/ready');
    expect(warming.status).toBe(503);
    expect(warming.headers['retry-after']).toBe('1');
    expect(warming.body).toEqual({ statusCode: 503, message: ['the instance is warming up'], error: 'Service Unavailable' });
    expect((await ctx.anonymous.get('/health')).body).toEqual({ status: 'ok' });
    await ctx.services.warmUp.start();
    const ready = await ctx.anonymous.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});
