import { spawn } from 'node:child_process';
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

/** A webhook receiver in a process of its own (its work is not the service's), counting what it gets. */
async function startReceiver(): Promise<{ url: string; received(): Promise<number>; close(): void }> {
  const child = spawn(process.execPath, ['-e', `
    let n = 0;
    const server = require('node:http').createServer((req, res) => {
      if (req.url === '/count') return res.end(String(n));
      req.resume(); req.on('end', () => { n++; res.writeHead(204).end(); });
    }).listen(0, '127.0.0.1', () => console.log(server.address().port));`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  const url = `http://127.0.0.1:${port}`;
  return { url, received: async () => Number(await (await fetch(`${url}/count`)).text()), close: () => child.kill() };
}

/**
 * What webhooks add to the visitor's lead submission: POST /v1/embed/{id}/leads for a chatbot whose
 * organisation has 5 webhook endpoints on `lead.created` against one whose organisation has none,
 * on the same app and database: while a job worker sends the webhooks to a loopback receiver
 * meanwhile (both compete for the same cores and database), and with the worker stopped (what
 * queueing the 5 messages in the request itself adds).
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
    // The app's instance queues; a second instance on the same database runs the job worker, so the
    // worker can be stopped to measure what queueing alone adds.
    const services = createServices(config, database, createLogger('info', '/dev/null'));
    const sender = createServices(config, database, createLogger('info', '/dev/null'));
    const receiver = await startReceiver();
    const app = await listen(createApp(services));
    sender.worker.start();
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
    const none = () => postLoad(`${app.url}/v1/embed/${quiet}/leads`, lead, options);
    const five = () => postLoad(`${app.url}/v1/embed/${notified}/leads`, lead, options);
    await none();
    await five();
    const sending = await alternate(rounds, none, five, (r) => r.p50Ms);
    ctx.report('lead, no webhooks', { 'p50 ms': fmt(sending.baseline.p50Ms), 'p99 ms': fmt(sending.baseline.p99Ms), errors: sending.baseline.errors });
    ctx.report('lead, 5 webhooks, sent meanwhile', { 'p50 ms': fmt(sending.subject.p50Ms), 'p99 ms': fmt(sending.subject.p99Ms), errors: sending.subject.errors });
    ctx.report(`ratio 5 webhooks/none, sent meanwhile (${rounds} rounds)`, { 'p50 ratio': fmt(sending.ratio) });
    await sender.worker.stop();
    const queueing = await alternate(rounds, none, five, (r) => r.p50Ms);
    ctx.report('lead, no webhooks (worker stopped)', { 'p50 ms': fmt(queueing.baseline.p50Ms), 'p99 ms': fmt(queueing.baseline.p99Ms), errors: queueing.baseline.errors });
    ctx.report('lead, 5 webhooks, queued only', { 'p50 ms': fmt(queueing.subject.p50Ms), 'p99 ms': fmt(queueing.subject.p99Ms), errors: queueing.subject.errors });
    ctx.report(`ratio 5 webhooks/none, queued only (${rounds} rounds)`, { 'p50 ratio': fmt(queueing.ratio) });
    // Another sender drains the queue: every message is delivered (not what the visitor waits for).
    const drain = createServices(config, database, createLogger('info', '/dev/null'));
    drain.worker.start();
    const deadline = Date.now() + 300_000;
    while (await services.jobs.pendingCount(['webhook-deliver']) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const queued = await database.db('webhook_deliveries').count<{ count: string }[]>({ count: '*' }).first();
    ctx.report('webhook messages queued / received', { queued: Number(queued?.count ?? 0), received: await receiver.received() });
    await drain.worker.stop();
    app.close();
    receiver.close();
    await database.close();
  },
};
