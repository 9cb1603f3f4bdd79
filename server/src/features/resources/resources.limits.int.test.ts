import { pino } from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { createServices } from '../../services.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { makePdf } from './ingestion/fixtures/make-pdf.js';

describe('resource creation rate limit (429)', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '3' } }); });
  afterAll(async () => { await ctx?.close(); });

  it('shares one bucket across the four endpoints, counts invalid bodies, and answers 429 with headers and no body', async () => {
    expect((await ctx.api.post('/v1/resource/text').send({ name: 'a', content: 'x' })).status).toBe(201);
    // Counted before the body is validated: a 400 uses up the bucket too.
    const invalid = await ctx.api.post('/v1/resource/website').send({ url: 'nope' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['ratelimit-remaining']).toBe('1');
    expect((await ctx.api.post('/v1/resource/video-host').send({ hostedVideoId: '1' })).status).toBe(201);
    const limited = await ctx.api.post('/v1/resource/file').attach('file', makePdf(['x']), 'a.pdf');
    expect(limited.status).toBe(429);
    expect(limited.text).toBe('');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-limit']).toBe('3');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['ratelimit-reset']).toBeDefined();
    // Reads are not limited; another key has its own bucket.
    expect((await ctx.api.get('/v1/resource/all')).status).toBe(200);
    const other = await ctx.newOrganisation();
    expect((await other.api.post('/v1/resource/text').send({ name: 'b', content: 'y' })).status).toBe(201);
  });

  it('counts requests of every instance sharing the database in the same bucket', async () => {
    const other = await ctx.newOrganisation();
    const secondInstance = createApp(createServices(ctx.config, ctx.database, pino({ level: 'silent' })));
    const viaSecond = () => supertest(secondInstance).post('/v1/resource/text').set('x-api-key', other.apiKey).send({ name: 'n', content: 'x' });
    expect((await other.api.post('/v1/resource/text').send({ name: 'n', content: 'x' })).status).toBe(201);
    expect((await viaSecond()).status).toBe(201);
    expect((await other.api.post('/v1/resource/text').send({ name: 'n', content: 'x' })).status).toBe(201);
    expect((await viaSecond()).status).toBe(429);
  });

  it('starts a fresh window once the old one has ended', async () => {
    const other = await ctx.newOrganisation();
    for (let i = 0; i < 3; i++) await other.api.post('/v1/resource/text').send({ name: 'n', content: 'x' }).expect(201);
    expect((await other.api.post('/v1/resource/text').send({ name: 'n', content: 'x' })).status).toBe(429);
    await ctx.database.db('rate_limit_hits').where('key', 'like', `resource-creation:${other.keyId}`).update({ reset_at: Date.now() - 1 });
    expect((await other.api.post('/v1/resource/text').send({ name: 'n', content: 'x' })).status).toBe(201);
  });
});

describe('plan limits (402)', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } }); });
  afterAll(async () => { await ctx?.close(); });

  it('refuses a resource beyond the plan\'s number of resources', async () => {
    const limited = await ctx.newOrganisation({ maxResources: 2 });
    await limited.api.post('/v1/resource/text').send({ name: 'a', content: 'x' }).expect(201);
    await limited.api.post('/v1/resource/video-host').send({ hostedVideoId: '5' }).expect(201);
    for (const [path, body] of [['text', { name: 'c', content: 'x' }], ['website', { url: 'https://example.com/' }], ['video-host', { hostedVideoId: '6' }]] as const) {
      const res = await limited.api.post(`/v1/resource/${path}`).send(body);
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ statusCode: 402, message: ['your plan allows at most 2 resources'], error: 'Payment Required' });
    }
    expect((await limited.api.post('/v1/resource/file').attach('file', makePdf(['x']), 'a.pdf')).status).toBe(402);
    expect((await limited.api.get('/v1/resource/all')).body).toHaveLength(2);
  });

  it('refuses content beyond the plan\'s stored bytes, counting text and files', async () => {
    const pdf = makePdf(['Some text for the storage quota.']);
    const limited = await ctx.newOrganisation({ maxStorageBytes: pdf.length + 100 });
    await limited.api.post('/v1/resource/file').attach('file', pdf, 'a.pdf').expect(201);
    await limited.api.post('/v1/resource/text').send({ name: 'fits', content: 'x'.repeat(100) }).expect(201);
    const over = await limited.api.post('/v1/resource/text').send({ name: 'over', content: 'y' });
    expect(over.status).toBe(402);
    expect(over.body.message).toEqual([`your plan allows at most ${pdf.length + 100} stored bytes`]);
    expect((await limited.api.post('/v1/resource/file').attach('file', pdf, 'b.pdf')).status).toBe(402);
  });

  it('checks the key before the quota: 401 without a key', async () => {
    expect((await ctx.anonymous.post('/v1/resource/text').send({ name: 'a', content: 'x' })).status).toBe(401);
  });
});
