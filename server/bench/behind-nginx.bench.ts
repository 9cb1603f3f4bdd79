import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { EventStreamDecoder } from '@parley/shared';
import { FakeModelProvider } from '../src/test/fakes/fake-model-provider.js';
import { findNginx, startNginx } from '../src/test/nginx.js';
import { startServiceProcess } from '../src/test/service-process.js';
import { untilOk } from './chat-stream.bench.js';
import { alternate, fmt, type Benchmark, type BenchContext } from './bench-kit.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const API_KEY = 'pk_bench_behind_nginx_0123456789abcdef';
const DELTAS = 10;
const DELTA_GAP_MS = 20;

interface Timing { firstEventMs: number; totalMs: number }

/** Streams one chat answer on a connection of its own: when the first partial response and the end arrived. */
function timeStream(baseUrl: string, chatbotId: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstEventMs = Number.NaN;
    const decoder = new EventStreamDecoder();
    const req = http.request(`${baseUrl}/v1/chatbot/chat-stream`, {
      method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    }, (res) => {
      if (res.statusCode !== 201) reject(new Error(`chat-stream answered ${res.statusCode}`));
      res.setEncoding('utf8').on('data', (chunk: string) => {
        if (Number.isNaN(firstEventMs) && decoder.push(chunk).some((event) => event.type === 'partialResponse')) firstEventMs = performance.now() - started;
      }).on('end', () => resolve({ firstEventMs, totalMs: performance.now() - started })).on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ chatbotId, conversation: [{ text: 'Tell me about the lighthouse.', fromUser: true }] }));
  });
}

async function run(ctx: BenchContext): Promise<void> {
  const binary = findNginx();
  if (!binary) {
    ctx.report('skipped: no nginx binary', { install: 'apt-get install nginx' });
    return;
  }
  if (spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('the server build failed');
  const provider = await FakeModelProvider.start('openai', { deltas: Array.from({ length: DELTAS }, (_, i) => ` part${i}`), intervalMs: DELTA_GAP_MS });
  // The built server (what `npm start` runs) on its embedded database, as a single self-hosted instance.
  const service = await startServiceProcess({
    BOOTSTRAP_API_KEY: API_KEY, OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: provider.baseUrl, TRUST_PROXY: '127.0.0.1', JOBS_ENABLED: 'false',
  }, { built: true });
  const upstream = new URL(service.url).host;
  const site = await startNginx(binary, { upstream });
  // nginx's defaults (HTTP/1.0 to the service, buffering on) and the service's X-Accel-Buffering ignored: a buffered stream.
  const buffering = await startNginx(binary, {
    upstream, replace: { 'proxy_buffering off;': 'proxy_buffering on; proxy_ignore_headers X-Accel-Buffering;', 'proxy_http_version 1.1;': 'proxy_http_version 1.0;' },
  });
  try {
    await untilOk(`${site.url}/health/ready`);
    const chatbot = await fetch(`${service.url}/v1/chatbot`, {
      method: 'POST', headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench' }),
    }).then((res) => res.json() as Promise<{ id: string }>);
    // Warm both paths (the chatbot read, nginx's upstream connection).
    for (let i = 0; i < 3; i++) { await timeStream(service.url, chatbot.id); await timeStream(site.url, chatbot.id); }
    const rounds = ctx.full ? 41 : 15;
    const direct = () => timeStream(service.url, chatbot.id);
    const viaSite = await alternate(rounds, direct, () => timeStream(site.url, chatbot.id), (t) => t.firstEventMs);
    ctx.report(`first event, direct vs nginx (${DELTAS} deltas ${DELTA_GAP_MS} ms apart)`, {
      directMs: fmt(viaSite.baseline.firstEventMs, 1), nginxMs: fmt(viaSite.subject.firstEventMs, 1), ratio: fmt(viaSite.ratio),
      directTotalMs: fmt(viaSite.baseline.totalMs, 1), nginxTotalMs: fmt(viaSite.subject.totalMs, 1),
    });
    const viaBuffering = await alternate(Math.ceil(rounds / 3), direct, () => timeStream(buffering.url, chatbot.id), (t) => t.firstEventMs);
    ctx.report('first event, direct vs a buffering nginx', {
      directMs: fmt(viaBuffering.baseline.firstEventMs, 1), nginxMs: fmt(viaBuffering.subject.firstEventMs, 1), ratio: fmt(viaBuffering.ratio),
    });
  } finally {
    await site.stop();
    await buffering.stop();
    await service.kill();
    await provider.close();
  }
}

/** The recommended nginx site (docs/nginx/parley.conf) against no proxy: what it adds to a visitor's first words. */
export const benchmark: Benchmark = {
  name: 'Behind nginx: first streamed event through the recommended site',
  // The proxy does not depend on the database.
  databases: ['pglite'],
  run,
};
