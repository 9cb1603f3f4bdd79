import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../errors/http-error.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService, usageMonth } from './usage.service.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

const NOV = Date.UTC(2026, 10, 30, 23, 59, 59);
const DEC = Date.UTC(2026, 11, 1, 0, 0, 1);

describe('UsageService.consumeMessage', () => {
  it('counts per organisation and UTC month, so a new month starts from zero', async () => {
    const { usage } = ctx.services;
    const org = await ctx.newOrganisation();
    const plan = { monthlyMessages: 2 };
    await usage.consumeMessage(org.organisationId, plan, NOV);
    await usage.consumeMessage(org.organisationId, plan, NOV);
    await expect(usage.consumeMessage(org.organisationId, plan, NOV)).rejects.toMatchObject({ statusCode: 402 });
    await usage.consumeMessage(org.organisationId, plan, DEC);
    expect(await usage.messagesThisMonth(org.organisationId, NOV)).toBe(2);
    expect(await usage.messagesThisMonth(org.organisationId, DEC)).toBe(1);
    expect(await usage.messagesThisMonth(ctx.org.organisationId, NOV)).toBe(0);
    expect([usageMonth(NOV), usageMonth(DEC)]).toEqual(['2026-11', '2026-12']);
  });

  it('refuses every message of a plan with no messages, and counts without limit on an unlimited plan', async () => {
    const { usage } = ctx.services;
    const org = await ctx.newOrganisation();
    const refused = await usage.consumeMessage(org.organisationId, { monthlyMessages: 0 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).toBody()).toEqual({ statusCode: 402, message: ["the plan's monthly limit of 0 chat messages is reached"], error: 'Payment Required' });
    for (let i = 0; i < 3; i++) await usage.consumeMessage(org.organisationId, {});
    expect(await usage.messagesThisMonth(org.organisationId)).toBe(3);
  });

  it('lets exactly the limit through when many messages arrive at once', async () => {
    const { usage } = ctx.services;
    const org = await ctx.newOrganisation();
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => usage.consumeMessage(org.organisationId, { monthlyMessages: 17 })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(17);
    expect(await usage.messagesThisMonth(org.organisationId)).toBe(17);
  });

  it('keeps the limit exact across instances counting the same organisation at once', async () => {
    const org = await ctx.newOrganisation();
    const instances = [ctx.services.usage, new UsageService(new UsageRepository(ctx.services.database.db))];
    const results = await Promise.allSettled(instances.flatMap((usage) => Array.from({ length: 30 }, () => usage.consumeMessage(org.organisationId, { monthlyMessages: 25 }))));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(25);
    expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason.statusCode)).toEqual(Array(35).fill(402));
    expect(await usage(org.organisationId)).toBe(25);
  });

  it('counts messages that arrive together in a few statements, not one each (the month\'s row is one lock)', async () => {
    const org = await ctx.newOrganisation();
    const statements: string[] = [];
    const onQuery = (query: { sql: string }) => { if (query.sql.includes('usage_counters')) statements.push(query.sql); };
    const { db } = ctx.services.database;
    db.on('query', onQuery);
    try {
      await Promise.all(Array.from({ length: 100 }, () => ctx.services.usage.consumeMessage(org.organisationId, { monthlyMessages: 1000 })));
    } finally {
      db.off('query', onQuery);
    }
    expect(await usage(org.organisationId)).toBe(100);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(statements.length).toBeLessThanOrEqual(3);
  });
});

function usage(organisationId: string): Promise<number> {
  return ctx.services.usage.messagesThisMonth(organisationId);
}
