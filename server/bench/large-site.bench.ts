import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { EventStreamDecoder } from '@parley/shared';
import { pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { WorkerSentenceEncoder, LOCAL_ENCODER_MODEL } from '../src/providers/llm/local/sentence-encoder.js';
import { meaningTexts } from '../src/providers/llm/local/sentence-vectors.js';
import { createServices, type Services } from '../src/services.js';
import { benchDatabase } from './bench-database.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';
import { questionsFrom, startLargeSite, type LargeSite } from './large-site.js';

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? Number.NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Timing { status: number; firstEventMs: number; ok: boolean }

/** POSTs a chat-stream request; times its first event. */
function ask(url: string, apiKey: string, chatbotId: string, question: string): Promise<Timing> {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstEventMs = Number.NaN;
    let ended = false;
    const decoder = new EventStreamDecoder();
    const req = http.request(`${url}/v1/chatbot/chat-stream`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': apiKey } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const events = decoder.push(chunk);
        if (events.length > 0 && Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
        if (events.some((event) => event.type === 'streamEnd')) ended = true;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, firstEventMs, ok: res.statusCode === 201 && ended }));
      res.on('error', () => resolve({ status: 0, firstEventMs, ok: false }));
    });
    req.on('error', () => resolve({ status: 0, firstEventMs, ok: false }));
    req.end(JSON.stringify({ chatbotId, conversation: [{ text: question, fromUser: true }] }));
  });
}

/** The burst's clients run in a process of their own (burst-client.mjs): their work does not share the service's event loop. */
async function burstFromAnotherProcess(input: { url: string; apiKey: string; chatbotId: string; questions: readonly string[] }): Promise<Timing[]> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./burst-client.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  child.stdin.end(JSON.stringify(input));
  const code = await exited;
  if (code !== 0) throw new Error(`the burst's client process exited with ${code}`);
  return (JSON.parse(output) as Timing[]).map((t) => ({ ...t, firstEventMs: t.firstEventMs ?? Number.NaN }));
}

/** Sequential keep-alive GETs of every page: the crawl's floor in the same run (median of three after a warm-up). */
async function bareCrawlSeconds(urls: readonly string[]): Promise<number> {
  const once = async () => {
    const keepAlive = new http.Agent({ keepAlive: true });
    const started = performance.now();
    for (const url of urls) await new Promise<void>((resolve, reject) => http.get(url, { agent: keepAlive }, (res) => res.resume().on('end', resolve)).on('error', reject));
    keepAlive.destroy();
    return (performance.now() - started) / 1000;
  };
  await once();
  return [await once(), await once(), await once()].sort((a, b) => a - b)[1]!;
}

async function untilDone(services: Services, ids: readonly string[]): Promise<void> {
  for (;;) {
    const rows: { ai_processing_status: string; failure_reason: string | null }[] = await services.database.db('resources').whereIn('id', [...ids]).select('ai_processing_status', 'failure_reason');
    const failed = rows.find((row) => row.ai_processing_status === 'FAILED');
    if (failed) throw new Error(`a resource failed: ${failed.failure_reason}`);
    if (rows.every((row) => row.ai_processing_status === 'DONE')) return;
    await sleep(50);
  }
}

/** Chunks of the resources still without stored sentence vectors, and all of them. */
async function meaningProgress(services: Services, ids: readonly string[]): Promise<{ missing: number; chunks: number }> {
  const { db } = services.database;
  const [row] = (await db.raw(
    `SELECT count(*)::int AS chunks, count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM chunk_sentence_vectors v WHERE v.chunk_id = c.id AND v.model = ?))::int AS missing
     FROM resource_chunks c WHERE c.resource_id = ANY(?::text[])`, [LOCAL_ENCODER_MODEL, [...ids]])).rows;
  return row;
}

/** Asks the questions one at a time; first-event p50/p95 and this process's CPU per answer (service, clients and any background work). */
async function oneAtATime(url: string, apiKey: string, chatbotId: string, questions: readonly string[]) {
  const timings: Timing[] = [];
  const cpuMs: number[] = [];
  for (const question of questions) {
    const before = process.cpuUsage();
    timings.push(await ask(url, apiKey, chatbotId, question));
    const used = process.cpuUsage(before);
    cpuMs.push((used.user + used.system) / 1000);
  }
  const firsts = timings.filter((t) => t.ok).map((t) => t.firstEventMs);
  return { p50: percentile(firsts, 50), p95: percentile(firsts, 95), cpuMs: percentile(cpuMs, 50), errors: timings.filter((t) => !t.ok).length };
}

/** The encoder alone (a worker of its own, no cache) over a sample of the same sentences: sentences/s, and the seconds it would take over all of them. */
async function encoderAlone(services: Services, ids: readonly string[]): Promise<{ perSecond: number; sentences: number }> {
  const contents: string[] = await services.database.db('resource_chunks').whereIn('resource_id', [...ids]).orderBy('id').pluck('content');
  // As the vectors job encodes them: each batch of 32 chunks' distinct sentences.
  let sentences = 0;
  for (let i = 0; i < contents.length; i += 32) sentences += new Set(contents.slice(i, i + 32).flatMap(meaningTexts)).size;
  // 64 chunks spread over all of them: the first pages' sentences are not like the rest.
  const step = Math.max(1, Math.floor(contents.length / 64));
  const sample = [...new Set(contents.filter((_, i) => i % step === 0).slice(0, 64).flatMap(meaningTexts))];
  const encoder = new WorkerSentenceEncoder();
  try {
    await encoder.embed(['Warm up.'], { cache: false });
    const started = performance.now();
    await encoder.embed(sample, { cache: false });
    return { perSecond: sample.length / ((performance.now() - started) / 1000), sentences };
  } finally {
    await encoder.close();
  }
}

/** The service's encoders (seen on their first call): how many sentences they ran through the model by a given time. */
const encoders = new Set<WorkerSentenceEncoder>();
const embed = WorkerSentenceEncoder.prototype.embed;
WorkerSentenceEncoder.prototype.embed = function (this: WorkerSentenceEncoder, ...args) {
  encoders.add(this);
  return embed.apply(this, args);
};
const encodedSoFar = () => [...encoders].reduce((sum, encoder) => sum + encoder.encoded, 0);

async function run(ctx: BenchContext, site: LargeSite): Promise<void> {
  const database = await benchDatabase(ctx.database);
  const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', CRAWL_ALLOW_PRIVATE_NETWORKS: 'true' });
  const services = createServices(config, database, pino({ level: 'silent' }));
  const server = http.createServer(createApp(services)).listen(0, '127.0.0.1', 4096);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.worker.start();
  try {
    await services.warmUp.start();
    const org = await services.organisations.createOrganisation({ name: 'Large site' });
    const auth = (await services.organisations.authenticate(org.apiKey))!;
    const questions = questionsFrom(site.pages, 40);
    const bareSeconds = await bareCrawlSeconds(site.urls);

    const started = performance.now();
    const ids: string[] = [];
    for (const [k, section] of site.sections.entries()) {
      const resource = await services.resources.createWebsite(auth, {
        url: `${site.site.url}${section.root}`, subLinks: [], syncFrequency: 'NEVER', tags: [],
        settings: { discovery: 'LINKS', maxPages: section.pages.length, maxDepth: 2, includePaths: [`/docs/s${k}/**`] },
      });
      ids.push(resource.id);
    }
    services.worker.notify();
    await untilDone(services, ids);
    const doneSeconds = (performance.now() - started) / 1000;
    const pages = Number((await services.database.db('website_pages').whereIn('resource_id', ids).count<{ count: string }[]>({ count: '*' }))[0]!.count);
    if (pages !== site.pages.length) throw new Error(`indexed ${pages} of ${site.pages.length} pages`);
    const atDone = await meaningProgress(services, ids);
    ctx.report(`pages/s until all 6 resources DONE (${pages} pages)`, {
      seconds: fmt(doneSeconds, 1), 'pages/s': fmt(pages / doneSeconds, 1), 'bare crawl pages/s': fmt(pages / bareSeconds, 0), 'ratio vs bare': fmt(bareSeconds / doneSeconds, 3),
      // Background encoding done while resources were still being read (it shares the cores with them).
      'chunks with sentence vectors at DONE': `${atDone.chunks - atDone.missing} of ${atDone.chunks}`, 'sentences encoded by DONE': encodedSoFar(), 'load average': fmt(loadavg()[0]!, 1),
    });
    // BENCH_UNTIL_DONE=1: ingestion only (the meaning index and the questions take minutes more).
    if (process.env.BENCH_UNTIL_DONE === '1') return;

    const chatbotId = (await services.chatbots.create(auth, {
      name: 'Manual', resourceIds: ids, showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi',
      chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8',
      enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [],
    })).id;
    const filling = await oneAtATime(url, org.apiKey, chatbotId, questions);
    const afterFilling = await meaningProgress(services, ids);
    ctx.report('40 questions one at a time while the index fills', {
      'p50 first event ms': fmt(filling.p50, 0), 'p95 ms': fmt(filling.p95, 0), 'CPU ms/answer (p50, incl. background)': fmt(filling.cpuMs, 0),
      'chunks missing vectors before/after': `${atDone.missing}/${afterFilling.missing} of ${atDone.chunks}`, errors: filling.errors,
    });

    // The burst, still shortly after DONE.
    const burstQuestions = questionsFrom(site.pages, 300);
    const burstStarted = performance.now();
    const burst = await burstFromAnotherProcess({ url, apiKey: org.apiKey, chatbotId, questions: burstQuestions });
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    const burstMissing = await meaningProgress(services, ids);
    const ok = burst.filter((t) => t.ok).map((t) => t.firstEventMs);
    ctx.report('300 questions at once right after DONE', {
      'p50 first event ms': fmt(percentile(ok, 50), 0), 'p95 ms': fmt(percentile(ok, 95), 0), refused503: burst.filter((t) => t.status === 503).length,
      otherErrors: burst.filter((t) => !t.ok && t.status !== 503).length, wallS: fmt(burstSeconds, 1),
      'ratio p50 vs one at a time': fmt(percentile(ok, 50) / filling.p50, 1), 'chunks missing vectors after': burstMissing.missing,
    });

    if (process.env.BENCH_UNTIL_BURST === '1') return;

    while ((await meaningProgress(services, ids)).missing > 0) await sleep(200);
    const meaningSeconds = (performance.now() - started) / 1000;
    const encoder = await encoderAlone(services, ids);
    const encoderSeconds = encoder.sentences / encoder.perSecond;
    ctx.report('meaning index complete (from the first resource)', {
      seconds: fmt(meaningSeconds, 1), 'after DONE s': fmt(meaningSeconds - doneSeconds, 1), chunks: atDone.chunks, sentences: encoder.sentences,
      'encoder alone s (est.)': fmt(encoderSeconds, 1), 'encoder alone sentences/s': fmt(encoder.perSecond, 0), 'ratio vs encoder alone': fmt(encoderSeconds / (meaningSeconds - doneSeconds), 3),
    });
    const complete = await oneAtATime(url, org.apiKey, chatbotId, questions);
    ctx.report('the same 40 questions, meaning index complete', {
      'p50 first event ms': fmt(complete.p50, 0), 'p95 ms': fmt(complete.p95, 0), 'CPU ms/answer (p50)': fmt(complete.cpuMs, 0),
      'ratio p50 while filling / complete': fmt(filling.p50 / complete.p50), errors: complete.errors,
    });
  } finally {
    server.closeAllConnections();
    server.close();
    await services.worker.stop();
    await database.close();
  }
}

/**
 * Issue 38: a generated site of the PostgreSQL manual's size and shape (1,200 pages with
 * BENCH_FULL=1, 300 by default) on loopback, as six website resources, the built-in engine:
 * pages/s until every resource is DONE against a bare keep-alive crawl; time until the meaning
 * index is complete against the encoder alone (estimated from 64 chunks spread over all of them);
 * first-event p50/p95 and CPU per answer of 40 questions made from the site's headings, while the
 * meaning index fills and once complete; a 300-question burst right after DONE (first event, 503s).
 * The service and the one-at-a-time client share this process (CPU per answer counts both); the
 * burst's clients run in a process of their own. BENCH_UNTIL_DONE=1 stops after the first figure
 * (ingestion work only), BENCH_UNTIL_BURST=1 after the burst (before the meaning index completes).
 */
export const benchmark: Benchmark = {
  name: 'Large site: a 1,000-page manual answerable at once',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const site = await startLargeSite(ctx.full ? 1200 : 300);
    ctx.report(`generated site: ${site.pages.length} pages in 6 sections${ctx.full ? '' : ' (quick size; BENCH_FULL=1 for 1,200)'}`, {
      MB: fmt(site.pages.reduce((sum, page) => sum + page.html.length, 0) / 1e6, 1), longPages: site.pages.filter((page) => page.headings.length >= 24).length,
    });
    try {
      await run(ctx, site);
    } finally {
      await site.site.close();
    }
  },
};
