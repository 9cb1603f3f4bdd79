import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../resources/ingestion/fixtures/fake-servers.js';
import { watchHealth } from '../../test/health-watch.js';
import { startServiceWithTenants, type ServiceWithTenants, type Tenant } from '../../test/tenants-on-service.js';

/**
 * The red team's round 3 (issue 34): work whose cost grows with its input must never hold the
 * event loop that answers every organisation. Each test loads a whole service (its own process,
 * on this run's database) with one organisation's hostile input while `/health` is polled every
 * 100 ms from here, and another organisation keeps using the API meanwhile.
 */
const HEALTH_BOUND_MS = 500;
/** A paragraph with no line break: sentences of ordinary words, over and over. */
const paragraph = (chars: number) => 'Our bakery opens at seven and the bread is baked on site every morning. '.repeat(Math.ceil(chars / 72)).slice(0, chars);

let world: ServiceWithTenants;
let owner: Tenant;
let other: Tenant;
let site: FakeServer;

beforeAll(async () => {
  site = await startFakeServer((req) => (req.url === '/big'
    ? { type: 'text/html', body: `<!doctype html><html><head><title>Big page</title></head><body><main><p>${paragraph(800_000)}</p></main></body></html>` }
    : { status: 404 }));
  world = await startServiceWithTenants(2, {
    CRAWL_ALLOW_PRIVATE_NETWORKS: 'true', ANALYSIS_DELAY_MS: '0', EMBED_VISITOR_RATE_LIMIT: '10000', LOCAL_SENTENCE_ENCODER: 'false',
  });
  [owner, other] = world.tenants as [Tenant, Tenant];
}, 180_000);
afterAll(async () => {
  await world?.close();
  await site?.close();
});

/** Runs `work` while watching `/health`, with the other organisation reading its chatbot every 300 ms meanwhile. */
async function whileWatched(work: () => Promise<void>): Promise<void> {
  const created = await other.call('POST', '/v1/chatbot', { name: 'Neighbour' });
  expect(created.status).toBe(201);
  const watch = watchHealth(world.service.url);
  let working = true;
  const statuses: number[] = [];
  const neighbour = (async () => {
    while (working) {
      statuses.push((await other.call('GET', `/v1/chatbot/${created.body.id}`)).status);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  })();
  try {
    await work();
  } finally {
    working = false;
    await neighbour;
  }
  const report = await watch.stop();
  expect(report.failures).toEqual([]);
  expect(report.polls).toBeGreaterThan(0);
  expect(report.slowestMs).toBeLessThan(HEALTH_BOUND_MS);
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((status) => status === 200)).toBe(true);
}

async function settled(tenant: Tenant, resourceId: string): Promise<string> {
  for (;;) {
    const { body } = await tenant.call('GET', `/v1/resource/${resourceId}`);
    if (body.aiProcessingStatus !== 'NOT_STARTED' && body.aiProcessingStatus !== 'IN_PROGRESS') return body.aiProcessingStatus;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the service keeps answering everyone while one organisation sends work that grows with its input', () => {
  it('a 5,000,000-character text in one paragraph is indexed', async () => {
    await whileWatched(async () => {
      const created = await owner.call('POST', '/v1/resource/text', { name: 'One long paragraph', content: paragraph(5_000_000) });
      expect(created.status).toBe(201);
      expect(await settled(owner, created.body.id)).toBe('DONE');
    });
  }, 300_000);

  it('a crawled page of 800 KB in one paragraph is indexed', async () => {
    await whileWatched(async () => {
      const created = await owner.call('POST', '/v1/resource/website', { url: `${site.url}/big` });
      expect(created.status).toBe(201);
      expect(await settled(owner, created.body.id)).toBe('DONE');
    });
  }, 300_000);

  it('visitors\' questions of long unbroken tokens are answered', async () => {
    const knowledge = await owner.call('POST', '/v1/resource/text', { name: 'Bakery', content: `# Opening hours\n${paragraph(20_000)}` });
    expect(await settled(owner, knowledge.body.id)).toBe('DONE');
    const chatbot = await owner.call('POST', '/v1/chatbot', { name: 'Bakery bot', resourceIds: [knowledge.body.id] });
    const shapes = ['a@', 'Mr. ', 'a?', '.\n', 'bread ', '# x ', '1.', 'www.'];
    await whileWatched(async () => {
      for (const shape of shapes) {
        const text = shape.repeat(Math.ceil(32_000 / shape.length)).slice(0, 32_000);
        const conversation = Array.from({ length: 5 }, (_, i) => ({ text, fromUser: i % 2 === 0 }));
        const res = await fetch(`${world.service.url}/v1/embed/${chatbot.body.id}/chat-stream`, {
          method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://visitor.example' }, body: JSON.stringify({ conversation }),
        });
        expect(res.status).toBe(201);
        await res.text();
      }
    });
  }, 300_000);

  it('a public conversation grown to its limit by appends of long unbroken tokens is saved and analysed', async () => {
    const chatbot = await owner.call('POST', '/v1/chatbot', { name: 'Public' });
    const save = (body: unknown) => fetch(`${world.service.url}/v1/embed/${chatbot.body.id}/conversation`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://visitor.example' }, body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json() as { id: string; visitorToken: string } }));
    // Three messages of 32,000 characters without a space, per save (a save carries 100,000 at most).
    const tokens = (seed: number) => Array.from({ length: 3 }, (_, i) => ({ text: `${'a@'.repeat(8_000)}${'Mr.'.repeat(5_000)}${seed}${i}`.slice(0, 32_000), fromUser: i !== 1 }));
    await whileWatched(async () => {
      const first = await save({ messages: tokens(0) });
      expect(first.status).toBe(201);
      const { id, visitorToken } = first.body;
      let saved = 3;
      for (let round = 1; saved + 3 <= 12; round++, saved += 3) {
        expect((await save({ conversationId: id, visitorToken, override: false, messages: tokens(round) })).status).toBe(201);
      }
      // 12 × 32,000 = 384,000 characters: the next long append is over the bound, and refused.
      const over = await save({ conversationId: id, visitorToken, override: false, messages: tokens(99) });
      expect(over.status).toBe(400);
      for (;;) {
        const listing = await owner.call('GET', `/v1/conversation/${chatbot.body.id}`);
        const analysis = listing.body.conversations?.[0]?.analysis;
        if (analysis?.status === 'DONE' || analysis?.status === 'FAILED') {
          expect(analysis.status).toBe('DONE');
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
  }, 300_000);
});
