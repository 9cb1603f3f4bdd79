import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('JobQueue.pruneFinished', () => {
  it('deletes finished jobs that finished before the cut-off, in batches, and keeps everything else', async () => {
    const { jobs } = ctx.services;
    const db = ctx.database.db;
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const ids: Record<string, number> = {};
    for (const name of ['oldDone1', 'oldDone2', 'oldDone3', 'oldFailed', 'recentDone', 'queued', 'running']) {
      ids[name] = (await jobs.enqueue('retention-test', { name }))!;
    }
    const finish = (name: string, status: string, finishedAt: number) => db('jobs').where({ id: ids[name] }).update({ status, finished_at: finishedAt });
    await finish('oldDone1', 'done', now - 30 * day);
    await finish('oldDone2', 'done', now - 20 * day);
    await finish('oldDone3', 'done', now - 15 * day);
    await finish('oldFailed', 'failed', now - 15 * day);
    await finish('recentDone', 'done', now - day);
    await db('jobs').where({ id: ids.running }).update({ status: 'running', locked_until: now - 30 * day });

    expect(await jobs.pruneFinished(now - 14 * day, 3)).toBe(4);
    const left = await db('jobs').where({ kind: 'retention-test' }).orderBy('id').pluck('id');
    expect(left).toEqual([ids.recentDone, ids.queued, ids.running]);
    expect(await jobs.pruneFinished(now - 14 * day)).toBe(0);
  });
});
