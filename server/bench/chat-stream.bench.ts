import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { EventStreamDecoder } from '@parley/shared';
import { destination, pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { insertChunkedResource } from '../src/features/chat/chat-test-fixtures.js';
import { createServices, type Services } from '../src/services.js';
import { FakeModelProvider } from '../src/test/fakes/fake-model-provider.js';
import { startServiceProcess } from '../src/test/service-process.js';
import { queueMissingSentenceVectors } from '../src/features/resources/ingestion/sentence-vectors-job.js';
import { benchDatabase } from './bench-database.js';
import { drainJobs } from './bench-ingestion.js';
import { alternate, fmt, type Benchmark, type BenchContext } from './bench-kit.js';
import { loadSquadText } from './squad-corpus.js';

interface StreamTiming { status: number; startedAt: number; firstByteMs: number; totalMs: number; ok: boolean }

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** POSTs a chat-stream request and times the first `data:` event and the end of the stream. */
function timeStream(url: string, apiKey: string, body: unknown): Promise<StreamTiming> {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstByteMs = Number.NaN;
    const decoder = new EventStreamDecoder();
    let ended = false;
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': apiKey } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const events = decoder.push(chunk);
        if (events.length > 0 && Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
        if (events.some((event) => event.type === 'streamEnd')) ended = true;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, startedAt: started, firstByteMs, totalMs: performance.now() - started, ok: res.statusCode === 201 && ended }));
      res.on('error', () => resolve({ status: 0, startedAt: started, firstByteMs, totalMs: performance.now() - started, ok: false }));
    });
    req.on('error', () => { resolve({ status: 0, startedAt: started, firstByteMs, totalMs: performance.now() - started, ok: false }); });
    req.end(JSON.stringify(body));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? Number.NaN;

/** An app on the database, in this process, listening on a loopback port. */
async function listen(config: ReturnType<typeof loadConfig>, database: Awaited<ReturnType<typeof benchDatabase>>) {
  const services = createServices(config, database, pino({ level: 'info' }, destination({ dest: '/dev/null', sync: false })));
  // A burst of simultaneous connects overflows Node's default accept backlog (511) while PGlite's queries block the event loop.
  const server = http.createServer(createApp(services)).listen(0, '127.0.0.1', 4096);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    services, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startService(ctx: BenchContext, env: Record<string, string> = {}) {
  const database = await benchDatabase(ctx.database);
  const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'info', ...env });
  const app = await listen(config, database);
  const org = await app.services.organisations.createOrganisation({ name: 'Bench' });
  return {
    services: app.services, url: app.url, org,
    /** Another instance on the same database: its own caches and sentence encoder, as after a restart. */
    another: () => listen(config, database),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

const ROOT = new URL('../../', import.meta.url).pathname;
export const BARE_SERVICE = new URL('./bare-stream-service.mjs', import.meta.url).pathname;

/**
 * The built server (`server/dist/main.js`, what `npm start` runs) in a process of its own on a
 * database prepared here, as an operator runs it: visitors and the model provider are elsewhere,
 * so the burst's clients and the fake provider in this process do not share the service's event loop.
 * `prepare` fills the database before the service opens it (PGlite admits one process at a time).
 * With `bare`, the burst's floor runs on that database instead (bare-stream-service.mjs).
 */
async function builtServiceOn(
  ctx: BenchContext, env: Record<string, string>, prepare: (services: Services, org: { organisationId: string; userId: string; apiKey: string }) => Promise<string>, bare = false,
) {
  if (spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('the server build failed');
  const database = await benchDatabase(ctx.database);
  const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'warn' });
  const services = createServices(config, database, pino({ level: 'silent' }));
  const org = await services.organisations.createOrganisation({ name: 'Bench' });
  const chatbotId = await prepare(services, org);
  await database.release();
  const serviceEnv = { LOG_LEVEL: 'warn', DATA_DIR: database.dataDir, ...database.serviceEnv, ...env };
  // BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=…" profiles the service.
  const service = await startServiceProcess(serviceEnv, {
    built: true, nodeArgs: process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean), ...(bare ? { script: BARE_SERVICE } : {}),
  });
  // As a load balancer does: visitors arrive once the instance says it is ready (its indexes loaded).
  if (!bare) await untilOk(`${service.url}/health/ready`);
  return {
    url: service.url, org, chatbotId,
    /** CPU seconds the service process has used so far (Linux), for comparing its work under the same load. */
    cpuSeconds(): number {
      try {
        const fields = fs.readFileSync(`/proc/${service.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return Number.NaN;
      }
    },
    /** The service process's peak resident memory so far, in MB (Linux). */
    peakRssMb(): number {
      try {
        return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${service.pid}/status`, 'utf8'))![1]) / 1024;
      } catch {
        return Number.NaN;
      }
    },
    async close() {
      await service.kill();
      await database.close();
    },
  };
}

/** Polls `url` every 20 ms until it answers 200. */
export async function untilOk(url: string): Promise<void> {
  for (let started = performance.now(); performance.now() - started < 300_000;) {
    const status = await new Promise<number>((resolve) => {
      http.get(url, { agent }, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', () => resolve(0));
    });
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} did not answer 200`);
}

/** A chatbot over `chunks` SQuAD paragraphs, cut into resources of 1,000 chunks. */
export async function chatbotOver(services: Services, org: { organisationId: string; userId: string; apiKey: string }, paragraphs: string[], chunks: number, model = 'alpha-4o-mini') {
  const resourceIds: string[] = [];
  for (let start = 0; start < chunks; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, chunks - start) }, (_, i) => paragraphs[(start + i) % paragraphs.length]!);
    resourceIds.push(await insertChunkedResource(services.database.db, org.organisationId, org.userId, `bench-${start}.txt`, batch));
  }
  const auth = (await services.organisations.authenticate(org.apiKey))!;
  return (await services.chatbots.create(auth, {
    name: 'Bench', resourceIds, showBadge: false, model: model as 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi',
    chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8',
    enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [],
  })).id;
}

/**
 * Time to first streamed event and total time of the local engine's answer as the knowledge base
 * grows. Each question is asked twice: the first time the instance's sentence encoder meets the
 * passages' sentences, the second time it knows them; growth is the second's. The chunks are
 * inserted without their stored sentence vectors (as knowledge indexed before they were stored),
 * so the first ask encodes the passages' sentences. At the first size the job that ingestion
 * follows with then stores them (timed), and the questions are asked on another instance that has
 * never met the passages: what a restart or a second instance of a cluster sees. At 10k chunks and
 * more the SQuAD paragraphs repeat, so fewer distinct sentences are new: compare the cold figures
 * within one size only.
 */
async function growth(ctx: BenchContext): Promise<void> {
  const { paragraphs, questions } = await loadSquadText();
  const sizes = ctx.full ? [1_000, 10_000, 100_000] : [1_000, 10_000];
  let base: number | undefined;
  for (const size of sizes) {
    const service = await startService(ctx);
    try {
      const chatbotId = await chatbotOver(service.services, service.org, paragraphs, size);
      await service.services.database.db.raw('ANALYZE resource_chunks');
      const asked = questions.slice(0, ctx.full ? 60 : 25);
      const ask = (question: string) => timeStream(`${service.url}/v1/chatbot/chat-stream`, service.org.apiKey, { chatbotId, conversation: [{ text: question, fromUser: true }] });
      // The encoder's worker and model start on the first question.
      await ask('What is this about?');
      const cold: StreamTiming[] = [];
      for (const question of asked) cold.push(await ask(question));
      const warm: StreamTiming[] = [];
      for (const question of asked) warm.push(await ask(question));
      const total = median(warm.map((t) => t.totalMs));
      base ??= total;
      ctx.report(`local engine, ${size} chunks, ${asked.length} questions`, {
        coldP50FirstEventMs: fmt(median(cold.map((t) => t.firstByteMs)), 1),
        p50FirstEventMs: fmt(median(warm.map((t) => t.firstByteMs)), 1), p50TotalMs: fmt(total, 1), p95TotalMs: fmt(percentile(warm.map((t) => t.totalMs), 95), 1),
        growthVs1k: fmt(total / base), errors: [...cold, ...warm].filter((t) => !t.ok).length,
      });
      if (size === sizes[0]) await freshInstanceWithStoredVectors(ctx, service, asked, chatbotId, cold);
    } finally {
      await service.close();
    }
  }
}

/** Stores the chunks' sentence vectors (the job after ingestion), then asks the questions on a fresh instance. */
async function freshInstanceWithStoredVectors(
  ctx: BenchContext, service: Awaited<ReturnType<typeof startService>>, asked: string[], chatbotId: string, cold: StreamTiming[],
): Promise<void> {
  const { db } = service.services.database;
  const started = performance.now();
  await queueMissingSentenceVectors(db, service.services.jobs);
  service.services.worker.start();
  const seconds = await drainJobs(service.services, started);
  await service.services.worker.stop();
  const [{ chunks, bytes }] = (await db.raw(`SELECT count(*)::int AS chunks, sum(octet_length(vectors))::float8 AS bytes FROM chunk_sentence_vectors`)).rows;
  const fresh = await service.another();
  try {
    const ask = (question: string) => timeStream(`${fresh.url}/v1/chatbot/chat-stream`, service.org.apiKey, { chatbotId, conversation: [{ text: question, fromUser: true }] });
    await ask('What is this about?');
    const first: StreamTiming[] = [];
    for (const question of asked) first.push(await ask(question));
    ctx.report(`local engine, ${chunks} chunks, first ask on a fresh instance, sentence vectors stored`, {
      p50FirstEventMs: fmt(median(first.map((t) => t.firstByteMs)), 1), vsNotStored: fmt(median(first.map((t) => t.firstByteMs)) / median(cold.map((t) => t.firstByteMs))),
      storingSeconds: fmt(seconds, 1), kBPerChunk: fmt(bytes / chunks / 1024, 1), errors: first.filter((t) => !t.ok).length,
    });
  } finally {
    await fresh.close();
  }
}

/** The service's overhead on top of a provider that streams 30 deltas 10 ms apart, against reading that provider directly. */
async function overhead(ctx: BenchContext): Promise<void> {
  const fake = await FakeModelProvider.start('openai', { deltas: Array.from({ length: 30 }, (_, i) => ` word${i}`), intervalMs: 10 });
  const service = await startService(ctx, { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseUrl });
  try {
    const { paragraphs } = await loadSquadText();
    const chatbotId = await chatbotOver(service.services, service.org, paragraphs, 1_000);
    const body = { chatbotId, conversation: [{ text: 'Which NFL team won Super Bowl 50?', fromUser: true }] };
    const direct = () => new Promise<StreamTiming>((resolve) => {
      const started = performance.now();
      let first = Number.NaN;
      const req = http.request(`${fake.baseUrl}/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.on('data', () => { if (Number.isNaN(first)) first = performance.now() - started; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, startedAt: started, firstByteMs: first, totalMs: performance.now() - started, ok: true }));
      });
      req.end(JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    });
    const viaService = () => timeStream(`${service.url}/v1/chatbot/chat-stream`, service.org.apiKey, body);
    const rounds = ctx.full ? 15 : 7;
    const result = await alternate(rounds, direct, viaService, (t) => t.totalMs);
    const firsts = await alternate(rounds, direct, viaService, (t) => t.firstByteMs);
    ctx.report('service vs provider alone (30 deltas, 10 ms apart)', {
      providerTotalMs: fmt(result.baseline.totalMs, 1), serviceTotalMs: fmt(result.subject.totalMs, 1),
      totalRatio: fmt(result.subject.totalMs / result.baseline.totalMs, 3),
      addedFirstEventMs: fmt(firsts.subject.firstByteMs - firsts.baseline.firstByteMs, 1),
    });
  } finally {
    await service.close();
    await fake.close();
  }
}

/** The most streams open at one moment: between their first event and their end. */
function peakOpen(timings: StreamTiming[]): number {
  const edges = timings.filter((t) => t.ok).flatMap((t) => [[t.startedAt + t.firstByteMs, 1], [t.startedAt + t.totalMs, -1]] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0, peak = 0;
  for (const [, step] of edges) peak = Math.max(peak, (open += step));
  return peak;
}

/** Polls `/health` every 50 ms until stopped; returns each answer's latency (failures count as infinite). */
function sampleHealth(url: string): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await new Promise<boolean>((resolve) => {
        http.get(`${url}/health`, { agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode === 200)); }).on('error', () => resolve(false));
      });
      latencies.push(ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return { async stop() { running = false; await loop; return latencies; } };
}

/**
 * A burst: every client arrives at once at a chatbot over 10,000 chunks; each answer streams for
 * 20 s (60 s with BENCH_FULL=1), 2 deltas a second. The service runs in its own process (the built
 * server), the clients and the fake provider in this one; the burst starts once `/health/ready`
 * says the instance has warmed up, as a load balancer's readiness probe would send it visitors. Admission (auth, quota, retrieval) shows as
 * time to first event; `peakOpen` counts the streams open at the same moment; `/health` is polled
 * throughout. Run on the floor (bare-stream-service.mjs: node:http, one query, no framework, no
 * SDK), on the floor reading the provider through the AI SDK, with admission effectively off (no
 * bound on concurrent preparation) and with the default settings, in the same run; `vsFloor` is a
 * run's p50 first event over the floor's.
 */
export async function burst(ctx: BenchContext, variants: [string, Record<string, string>, 'bare'?][] = [
  ['floor (bare node:http, one query)', {}, 'bare'],
  ['floor + AI SDK doStream', { BARE_PROVIDER: 'ai-sdk' }, 'bare'],
  ['admission off', { ADMISSION_CONCURRENCY: '1000000', ADMISSION_QUEUE_LIMIT: '1000000', ADMISSION_MAX_WAIT_MS: '1000000' }],
  ['admission on (defaults)', {}],
]): Promise<void> {
  const deltas = ctx.full ? 120 : 40;
  const fake = await FakeModelProvider.start('openai', { deltas: Array.from({ length: deltas }, (_, i) => ` word${i}`), intervalMs: 500 });
  const { paragraphs, questions } = await loadSquadText();
  try {
    /** The floor's p50 first event per burst size. */
    const floorP50 = new Map<number, number>();
    for (const [variant, env, bare] of variants) {
      const service = await builtServiceOn(ctx, { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseUrl, ...env }, async (services, org) => {
        const chatbotId = await chatbotOver(services, org, paragraphs, 10_000);
        await services.database.db.raw('ANALYZE resource_chunks');
        return chatbotId;
      }, bare === 'bare');
      const { chatbotId } = service;
      try {
        for (const level of ctx.full ? [1_000, 2_000] : [1_000]) {
          const started = performance.now();
          const cpuBefore = service.cpuSeconds();
          const health = sampleHealth(service.url);
          const timings = await Promise.all(Array.from({ length: level }, (_, i) => timeStream(`${service.url}/v1/chatbot/chat-stream`, service.org.apiKey,
            { chatbotId, conversation: [{ text: questions[i % questions.length]!, fromUser: true }] })));
          const healthMs = await health.stop();
          const ok = timings.filter((t) => t.ok);
          const failures = [...new Set(timings.filter((t) => !t.ok).map((t) => t.status))].join('/') || 'none';
          const p50 = median(ok.map((t) => t.firstByteMs));
          // The first bare run is the floor the others are compared with.
          const isFloor = bare === 'bare' && !floorP50.has(level);
          if (isFloor) floorP50.set(level, p50);
          const floor = floorP50.get(level);
          ctx.report(`${variant}: ${level} at once, 10k chunks (${deltas / 2} s answers)`, {
            completed: ok.length, errors: level - ok.length, errorStatuses: failures, busy503: timings.filter((t) => t.status === 503).length,
            peakOpen: peakOpen(timings),
            p50FirstEventMs: fmt(p50, 0), ...(!isFloor && floor !== undefined ? { vsFloor: fmt(p50 / floor) } : {}), p99FirstEventMs: fmt(percentile(ok.map((t) => t.firstByteMs), 99), 0),
            healthP99Ms: fmt(percentile(healthMs, 99), 0), healthSamples: healthMs.length,
            serviceCpuS: fmt(service.cpuSeconds() - cpuBefore, 1), servicePeakRssMb: fmt(service.peakRssMb(), 0),
            wallS: fmt((performance.now() - started) / 1000, 1),
          });
        }
      } finally {
        await service.close();
      }
    }
  } finally {
    await fake.close();
  }
}

/**
 * Chat streaming through the whole stack over real HTTP: latency growth with the knowledge base
 * (1k/10k chunks; 100k with BENCH_FULL=1), overhead over a fixed-rate fake provider, and
 * a 1,000-question burst at 10k chunks with admission off and on (first events, open streams, /health).
 */
export const benchmark: Benchmark = {
  name: 'Chat streaming: latency, provider overhead, concurrent streams',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    await growth(ctx);
    await overhead(ctx);
    await burst(ctx);
  },
};

