import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { benchDatabase } from './bench-database.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';

const CHARS = 2_000_000;
/** Paragraphs of ordinary sentences, `chars` characters in all. */
const longText = (chars: number) => Array.from({ length: Math.ceil(chars / 400) }, (_, i) =>
  `Section ${i}: the greenhouse keeps its tomatoes warm at night, and the gardener waters them at dawn before the market opens. `.repeat(3)).join('\n\n').slice(0, chars);

function call(url: string, apiKey: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: { id?: string; aiProcessingStatus?: string } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers: { 'content-type': 'application/json', 'x-api-key': apiKey } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function run(ctx: BenchContext, kind: 'pglite' | 'postgres'): Promise<void> {
  const database = await benchDatabase(kind);
  const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', LOCAL_SENTENCE_ENCODER: 'false' });
  const services = createServices(config, database, pino({ level: 'silent' }));
  const server = http.createServer(createApp(services)).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.worker.start();
  try {
    await services.warmUp.start();
    const owner = await services.organisations.createOrganisation({ name: 'Owner' });
    const neighbour = await services.organisations.createOrganisation({ name: 'Neighbour' });
    const chatbot = await call(url, neighbour.apiKey, 'POST', '/v1/chatbot', { name: 'Neighbour' });
    const started = performance.now();
    const resource = await call(url, owner.apiKey, 'POST', '/v1/resource/text', { name: 'Long text', content: longText(CHARS) });
    services.worker.notify();
    const waits: number[] = [];
    let status = 'NOT_STARTED';
    // The neighbour reads its chatbot back to back; the owner's status is read every 10th call.
    for (let i = 0; status === 'NOT_STARTED' || status === 'IN_PROGRESS'; i++) {
      const before = performance.now();
      if ((await call(url, neighbour.apiKey, 'GET', `/v1/chatbot/${chatbot.body.id}`)).status !== 200) throw new Error('the neighbour\'s call failed');
      waits.push(performance.now() - before);
      if (i % 10 === 0) status = (await call(url, owner.apiKey, 'GET', `/v1/resource/${resource.body.id}`)).body.aiProcessingStatus ?? 'FAILED';
    }
    if (status !== 'DONE') throw new Error(`the text ended ${status}`);
    const sorted = [...waits].sort((a, b) => a - b);
    ctx.report(`another organisation's calls while a ${CHARS.toLocaleString('en')}-character text is indexed`, {
      'indexed in s': fmt((performance.now() - started) / 1000, 1), calls: waits.length, 'p50 ms': fmt(sorted[Math.floor(sorted.length / 2)]!, 0),
      'p99 ms': fmt(sorted[Math.floor(sorted.length * 0.99)]!, 0), 'longest ms': fmt(sorted.at(-1)!, 0), 'load average': fmt(loadavg()[0]!, 1),
    });
  } finally {
    server.closeAllConnections();
    server.close();
    await services.worker.stop();
    await database.close();
  }
}

/**
 * Issue 38: how long another organisation's calls wait while one organisation's 2,000,000-character
 * text is indexed (its chunks written in short transactions, moved in at the end): the longest wait
 * is the one the whole index write used to impose on the embedded database's one connection.
 */
export const benchmark: Benchmark = {
  name: 'Big text: another organisation\'s calls meanwhile',
  databases: ['pglite', 'postgres'],
  run: (ctx) => run(ctx, ctx.database),
};
