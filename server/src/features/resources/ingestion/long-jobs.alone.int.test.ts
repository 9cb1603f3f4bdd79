import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceWithTenants, type ServiceWithTenants, type Tenant } from '../../../test/tenants-on-service.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';

/**
 * Issue 34, finding 4: long jobs must not hold every slot. Two organisations each run a crawl of a
 * site that takes 30 s per page, on a service with the default two job slots (its own process, this
 * run's database); a third organisation's text is still indexed at once, and deleting a running
 * crawl frees its slot at once, in the middle of a page.
 */
const PAGE_MS = 30_000;

let world: ServiceWithTenants;
let site: FakeServer;
let released = false;

beforeAll(async () => {
  site = await startFakeServer(async (req) => {
    if (req.url?.startsWith('/slow/')) {
      const until = Date.now() + PAGE_MS;
      while (!released && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      return { type: 'text/html', body: '<html><body><main><p>A page that took its time.</p></main></body></html>' };
    }
    if (req.url === '/quick') return { type: 'text/html', body: '<html><body><main><p>The ferry leaves at noon.</p></main></body></html>' };
    return { status: 404 };
  });
  world = await startServiceWithTenants(3, { CRAWL_ALLOW_PRIVATE_NETWORKS: 'true', JOB_CONCURRENCY: '2', LOCAL_SENTENCE_ENCODER: 'false' });
}, 180_000);
afterAll(async () => {
  released = true;
  await world?.close();
  await site?.close();
});

const status = async (tenant: Tenant, id: string) => (await tenant.call('GET', `/v1/resource/${id}`)).body.aiProcessingStatus as string;
const slowCrawl = (tenant: number) => ({
  url: `${site.url}/slow/${tenant}-0`, subLinks: Array.from({ length: 20 }, (_, i) => `${site.url}/slow/${tenant}-${i + 1}`),
});

describe('long jobs and the job slots', () => {
  it('a third organisation\'s text is DONE within 10 s while two others run long crawls; a deleted running crawl frees its slot', async () => {
    const [first, second, third] = world.tenants as [Tenant, Tenant, Tenant];
    const crawlA = (await first.call('POST', '/v1/resource/website', slowCrawl(1))).body.id as string;
    const crawlB = (await second.call('POST', '/v1/resource/website', slowCrawl(2))).body.id as string;
    await expect.poll(async () => [await status(first, crawlA), await status(second, crawlB)], { timeout: 20_000, interval: 100 })
      .toEqual(['IN_PROGRESS', 'IN_PROGRESS']);

    const text = await third.call('POST', '/v1/resource/text', { name: 'Timetable', content: 'The ferry leaves at noon and returns at six.' });
    expect(text.status).toBe(201);
    await expect.poll(() => status(third, text.body.id), { timeout: 10_000, interval: 100 }).toBe('DONE');

    // Both slots are held: the third organisation's crawl waits…
    const crawlC = (await third.call('POST', '/v1/resource/website', { url: `${site.url}/quick` })).body.id as string;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await status(third, crawlC)).toBe('NOT_STARTED');
    // …until a running crawl is deleted while it waits for a page: its slot is free within seconds.
    expect((await first.call('DELETE', `/v1/resource/${crawlA}`)).status).toBe(200);
    await expect.poll(() => status(third, crawlC), { timeout: 5_000, interval: 100 }).toBe('DONE');
    expect(await status(second, crawlB)).toBe('IN_PROGRESS');
  }, 120_000);
});
