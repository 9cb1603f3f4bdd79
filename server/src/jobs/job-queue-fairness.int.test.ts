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
  it('is work-conserving: an organisation is capped only while another one waits, even under concurrent claims', async () => {
    for (let index = 0; index < 4; index++) await queue.enqueue('fair-test', { organisationId: 'org-a', index });
    await queue.enqueue('fair-test', { organisationId: 'org-b', index: 0 });
    const claims = await Promise.all(Array.from({ length: 4 }, (_, slot) => queue.claim(['fair-test'], `worker-${slot}`, 60_000, 1)));
    const organisations = claims.flatMap((job) => (job ? [(job.payload as { organisationId: string }).organisationId] : []));
    // org-b's job is taken second (org-a is at its cap while it waits); then org-a alone takes every free slot.
    expect(organisations.sort()).toEqual(['org-a', 'org-a', 'org-a', 'org-b']);
  });

  it('asks a job to yield to a waiting organisation that holds fewer slots, never to its own', async () => {
    await queue.enqueue('fair-yield', { organisationId: 'big' });
    await queue.enqueue('fair-yield', { organisationId: 'big' });
    const [first, second] = [await queue.claim(['fair-yield'], 'w1', 60_000), await queue.claim(['fair-yield'], 'w2', 60_000)];
    await queue.enqueue('fair-yield', { organisationId: 'big' });
    expect(await queue.shouldYield(first!, ['fair-yield'], 1)).toBe(false);
    await queue.enqueue('fair-yield', { organisationId: 'small' });
    // big holds two slots, small none: a yield even before a time slice (imbalance 2)…
    expect(await queue.shouldYield(second!, ['fair-yield'], 2)).toBe(true);
    const other = await queue.claim(['fair-yield'], 'w3', 60_000, undefined, false, 'big');
    expect(other?.payload).toEqual({ organisationId: 'small' });
    // …but with one slot more (big 2, small 1) only after a time slice (imbalance 1).
    await queue.enqueue('fair-yield', { organisationId: 'small' });
    expect(await queue.shouldYield(second!, ['fair-yield'], 2)).toBe(false);
    expect(await queue.shouldYield(second!, ['fair-yield'], 1)).toBe(true);
    // The claim in a yielding slot never takes the yielding organisation's own job.
    await queue.claim(['fair-yield'], 'w4', 60_000, undefined, false, 'big');
    expect(await queue.claim(['fair-yield'], 'w5', 60_000, undefined, false, 'big')).toBeUndefined();
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
