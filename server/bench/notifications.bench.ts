import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services.js';
import { alternate, fmt, listen, type Benchmark } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';

/** Posts `body` to `url` from `concurrency` keep-alive connections for `durationMs`; the latencies of the 201s. */
async function postLoad(url: string, body: string, options: { concurrency: number; durationMs: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const once = () => new Promise<void>((resolve) => {
    const started = performance.now();
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', origin: 'https://www.shop.example' } }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode === 201) latencies.push(performance.now() - started); else errors++; resolve(); });
    });
    req.on('error', () => { errors++; resolve(); });
    req.end(body);
  });
  const worker = async () => { while (performance.now() < deadline) await once(); };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, p50Ms: latencies[Math.floor(latencies.length / 2)] ?? Number.NaN, p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN };
}

/**
 * What webhooks add to the visitor's lead submission: POST /v1/embed/{id}/leads for a chatbot whose
 * organisation has 5 webhook endpoints on `lead.created` against one whose organisation has none,
 * on the same app, database and running job worker (which sends the webhooks to a loopback
 * receiver meanwhile). Publishing only queues, so the ratio should stay near 1.
 */
export const benchmark: Benchmark = {
  name: 'lead submission with 5 webhooks vs none',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({
      DATA_DIR: database.dataDir, LOG_LEVEL: 'info', PUBLIC_URL: 'http://127.0.0.1:1', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      EMBED_VISITOR_RATE_LIMIT: '100000000', LOCAL_SENTENCE_ENCODER: 'false',
    });
    const services = createServices(config, database, createLogger('info', '/dev/null'));
    let received = 0;
    const receiver = await listen((req, res) => { req.resume(); req.on('end', () => { received++; res.writeHead(204).end(); }); });
    const app = await listen(createApp(services));
    services.worker.start();
    const chatbotOf = async (name: string, hooks: number) => {
      const org = await services.organisations.createOrganisation({ name });
      for (let i = 0; i < hooks; i++) {
        const res = await fetch(`${app.url}/v1/webhook`, {
          method: 'POST', headers: { 'x-api-key': org.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${receiver.url}/hook-${i}`, events: ['lead.created'] }),
        });
        if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${await res.text()}`);
      }
      const created = await fetch(`${app.url}/v1/chatbot`, { method: 'POST', headers: { 'x-api-key': org.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      return (await created.json() as { id: string }).id;
    };
    const quiet = await chatbotOf('No webhooks', 0);
    const notified = await chatbotOf('Five webhooks', 5);
    const lead = JSON.stringify({ name: 'Ada', email: 'ada@example.com' });
    const rounds = ctx.full ? 21 : 9;
    const options = { concurrency: 4, durationMs: ctx.full ? 1500 : 700 };
    await postLoad(`${app.url}/v1/embed/${quiet}/leads`, lead, options);
    await postLoad(`${app.url}/v1/embed/${notified}/leads`, lead, options);
    const result = await alternate(rounds,
      () => postLoad(`${app.url}/v1/embed/${quiet}/leads`, lead, options),
      () => postLoad(`${app.url}/v1/embed/${notified}/leads`, lead, options), (r) => r.p50Ms);
    ctx.report('lead, no webhooks', { 'p50 ms': fmt(result.baseline.p50Ms), 'p99 ms': fmt(result.baseline.p99Ms), errors: result.baseline.errors });
    ctx.report('lead, 5 webhooks on lead.created', { 'p50 ms': fmt(result.subject.p50Ms), 'p99 ms': fmt(result.subject.p99Ms), errors: result.subject.errors });
    ctx.report(`ratio 5 webhooks/none, median of ${rounds} rounds (goal <= 1.3)`, { 'p50 ratio': fmt(result.ratio) });
    // The worker sends them all meanwhile or soon after (delivery is not what the visitor waits for).
    const deadline = Date.now() + 120_000;
    while (await services.jobs.pendingCount(['webhook-deliver']) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    ctx.report('webhook requests received by the end', { received });
    await services.worker.stop();
    app.close();
    receiver.close();
    await database.close();
  },
};
