import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { JobQueue } from './job-queue.js';

let ctx: TestContext;
let queue: JobQueue;
beforeAll(async () => {
  ctx = await createTestContext();
  queue = new JobQueue(ctx.database.db);
});
afterAll(async () => { await ctx?.close(); });

describe('JobQueue.claim fairness', () => {
  it('gives one organisation at most its share of slots, even to concurrent claims', async () => {
    for (let index = 0; index < 4; index++) await queue.enqueue('fair-test', { organisationId: 'org-a', index });
    await queue.enqueue('fair-test', { organisationId: 'org-b', index: 0 });
    const claims = await Promise.all(Array.from({ length: 4 }, (_, slot) => queue.claim(['fair-test'], `worker-${slot}`, 60_000, 1)));
    const organisations = claims.flatMap((job) => (job ? [(job.payload as { organisationId: string }).organisationId] : []));
    expect(organisations.sort()).toEqual(['org-a', 'org-b']);
  });

  it('serves the organisation with the fewest running jobs first', async () => {
    await queue.enqueue('fair-order', { organisationId: 'busy' });
    await queue.enqueue('fair-order', { organisationId: 'busy' });
    await queue.enqueue('fair-order', { organisationId: 'idle' });
    const first = await queue.claim(['fair-order'], 'w1', 60_000);
    const second = await queue.claim(['fair-order'], 'w2', 60_000);
    expect([first?.payload, second?.payload]).toEqual([{ organisationId: 'busy' }, { organisationId: 'idle' }]);
  });
});
