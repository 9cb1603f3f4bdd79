import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { STORE_SENTENCE_VECTORS_JOB } from '../src/features/resources/ingestion/sentence-vectors-job.js';
import { FakeModelProvider } from '../src/test/fakes/fake-model-provider.js';
import { benchDatabase } from './bench-database.js';
import { fmt, listen, type Benchmark, type BenchContext } from './bench-kit.js';
import { containsAllFacts, judge, loadVisitorSet, VISITOR_DIR, type KnowledgeBase, type Verdict, type VisitorQuestion } from './visitor-eval.js';

// JSON answers of the API, read field by field by the benchmark.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Api = (method: string, url: string, body?: unknown) => Promise<any>;

interface Bots { restricted: string; open: string }

const CHATBOT_DEFAULTS = {
  showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi! How can I help?',
  chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF',
  secondaryBackgroundColor: '#F6F7F8', enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [],
};

/** Serves the knowledge bases' folders as static websites on loopback (no robots.txt: 404). */
async function serveSites() {
  return listen((req, res) => {
    const file = path.join(VISITOR_DIR, 'kb', path.normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    fs.readFile(file).then(
      (data) => res.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/css' }).end(data),
      () => res.writeHead(404).end('not found'),
    );
  });
}

function apiClient(baseUrl: string, apiKey: string): Api {
  return async (method, url, body) => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${baseUrl}${url}`, {
      method, headers: { 'x-api-key': apiKey, ...(body && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** Loads one knowledge base as the set's README says: its text, its PDF and its website; waits for DONE. */
async function loadKnowledgeBase(api: Api, kb: KnowledgeBase, siteUrl: string): Promise<Bots> {
  const dir = path.join(VISITOR_DIR, 'kb', kb.id);
  const ids: string[] = [];
  for (const text of kb.text) {
    ids.push((await api('POST', '/v1/resource/text', { name: text.name, content: await fs.readFile(path.join(dir, text.file), 'utf8') })).id);
  }
  for (const pdf of kb.pdf) {
    const form = new FormData();
    form.append('file', new Blob([await fs.readFile(path.join(dir, pdf.file))], { type: 'application/pdf' }), pdf.file);
    ids.push((await api('POST', '/v1/resource/file', form)).id);
  }
  const [first, ...rest] = kb.website.pages.map((page) => `${siteUrl}/${kb.id}/${kb.website.dir}/${page}`);
  ids.push((await api('POST', '/v1/resource/website', { url: first, subLinks: rest })).id);
  for (const id of ids) {
    for (;;) {
      const status = (await api('GET', `/v1/resource/${id}`)).aiProcessingStatus as string;
      if (status === 'DONE') break;
      if (status.startsWith('FAILED')) throw new Error(`${kb.id}: resource ${id} ended ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const create = async (name: string, restrict?: string) => (await api('POST', '/v1/chatbot', {
    ...CHATBOT_DEFAULTS, name, resourceIds: ids, ...(restrict ? { restrictAnswersToResourcesContentResponse: restrict } : {}),
  })).id as string;
  return { restricted: await create(`${kb.title} (restricted)`, kb.refusalText), open: await create(kb.title) };
}

/** A running service with the four knowledge bases loaded; `env` adds settings (a fake provider). */
async function startService(ctx: BenchContext, env: Record<string, string>) {
  const database = await benchDatabase(ctx.database);
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const config = loadConfig({
    DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', PORT: '0', PUBLIC_URL: url, CRAWL_ALLOW_PRIVATE_NETWORKS: 'true',
    RESOURCE_CREATION_RATE_LIMIT: '1000', ...(process.env.CHAT_CONTEXT_CHUNKS ? { CHAT_CONTEXT_CHUNKS: process.env.CHAT_CONTEXT_CHUNKS } : {}), ...env,
  });
  const services = createServices(config, database, pino({ level: 'silent' }), { jobPollIntervalMs: 20 });
  server.on('request', createApp(services));
  services.worker.start();
  const org = await services.organisations.createOrganisation({ name: 'Visitor questions' });
  const api = apiClient(url, org.apiKey);
  const sites = await serveSites();
  const { kbs, questions } = await loadVisitorSet();
  const bots = new Map<string, Bots>();
  const started = performance.now();
  for (const kb of kbs) bots.set(kb.id, await loadKnowledgeBase(api, kb, sites.url));
  const ingestSeconds = (performance.now() - started) / 1000;
  // Asked as the chatbots answer once their knowledge's meaning index is filled in (the job after
  // ingestion); while it fills, answers rank by words alone.
  while (await services.jobs.pendingCount([STORE_SENTENCE_VECTORS_JOB]) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    api, kbs, questions, bots, ingestSeconds,
    ask: async (chatbotId: string, q: VisitorQuestion) => {
      const conversation = [...(q.history ?? []), { text: q.question, fromUser: true }];
      const t = performance.now();
      const answer = await api('POST', '/v1/chatbot/chat', { chatbotId, conversation }) as { text: string };
      return { text: answer.text, ms: performance.now() - t };
    },
    async close() {
      sites.close();
      await services.worker.stop();
      server.closeAllConnections();
      server.close();
      await database.close();
    },
  };
}

const share = (part: number, whole: number) => (whole === 0 ? 'n/a' : fmt(part / whole));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? 0;

/** The offline local engine: restricted and open chatbots over every question. */
async function localEngine(ctx: BenchContext): Promise<void> {
  const service = await startService(ctx, {});
  ctx.report('ingestion (4 KBs, 12 resources)', { seconds: fmt(service.ingestSeconds, 1) });
  const verbose = process.env.BENCH_VERBOSE === '1';
  const rows: Record<string, Record<string, number>> = {};
  const count = (kb: string, key: string) => { const row = (rows[kb] ??= {}); row[key] = (row[key] ?? 0) + 1; };
  const lengths: number[] = [], latencies: number[] = [];
  for (const q of service.questions) {
    const kb = service.kbs.find((k) => k.id === q.kb)!;
    const bots = service.bots.get(q.kb)!;
    const restricted = await service.ask(bots.restricted, q);
    latencies.push(restricted.ms);
    count(q.kb, q.kind);
    let verdict: Verdict | string;
    let openLine = '';
    if (q.kind === 'on-topic' || q.kind === 'other-language') {
      verdict = judge(restricted.text, q, kb.refusalText);
      count(q.kb, `${q.kind}:${verdict}`);
      if (q.kind === 'on-topic') {
        lengths.push(restricted.text.length);
        const open = await service.ask(bots.open, q);
        const openVerdict = judge(open.text, q);
        count(q.kb, `open:${openVerdict}`);
        openLine = `      open [${openVerdict}] → ${open.text.replace(/\n/g, ' ⏎ ').slice(0, 300)}\n`;
      }
    } else if (q.kind === 'off-topic') {
      verdict = restricted.text.trim() === kb.refusalText ? 'refusedExactly' : 'answered';
      count(q.kb, `off:${verdict}`);
    } else {
      verdict = restricted.text.includes(kb.refusalText) ? 'refused' : 'replied';
      count(q.kb, `st:${verdict}`);
    }
    if (verbose) process.stdout.write(`    ${q.id} [${verdict}] ${q.question}\n      → ${restricted.text.replace(/\n/g, ' ⏎ ').slice(0, 300)}\n${openLine}`);
  }
  const total = (key: string) => Object.values(rows).reduce((sum, row) => sum + (row[key] ?? 0), 0);
  const figures = (get: (key: string) => number) => ({
    useful: share(get('on-topic:useful'), get('on-topic')),
    partial: share(get('on-topic:partial'), get('on-topic')),
    refused_on: share(get('on-topic:refused'), get('on-topic')),
    open_useful: share(get('open:useful'), get('on-topic')),
    open_notfound: share(get('open:notFound'), get('on-topic')),
    offtopic_ok: share(get('off:refusedExactly'), get('off-topic')),
    smalltalk_refused: share(get('st:refused'), get('small-talk')),
    other_lang_useful: share(get('other-language:useful'), get('other-language')),
  });
  for (const kb of service.kbs) ctx.report(`local engine, ${kb.id}`, figures((key) => rows[kb.id]?.[key] ?? 0));
  ctx.report('local engine, all four', figures(total));
  ctx.report('local engine, answers', {
    medianChars: median(lengths), latencyP50Ms: fmt(median(latencies), 1), latencyP95Ms: fmt(p95(latencies), 1),
  });
  await service.close();
}

/** A fake OpenAI-compatible provider: which turns are refused before the model is called, and what reaches it. */
async function withProvider(ctx: BenchContext): Promise<void> {
  const fake = await FakeModelProvider.start('openai', { deltas: ['The', ' answer', ' is', ' in', ' the', ' context.'] });
  const service = await startService(ctx, { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseUrl });
  const sent = () => fake.requests.length;
  const requestText = () => JSON.stringify(fake.requests.at(-1)?.body ?? {});
  let onTopic = 0, gated = 0, retrieved = 0, gatedRetrieved = 0, smallTalk = 0, gatedSmallTalk = 0, offTopic = 0, offTopicExact = 0;
  const promptChars: number[] = [];
  for (const q of service.questions) {
    const kb = service.kbs.find((k) => k.id === q.kb)!;
    const bots = service.bots.get(q.kb)!;
    const before = sent();
    const restricted = await service.ask(bots.restricted, q);
    const calledModel = sent() > before;
    const refusedBeforeModel = !calledModel && restricted.text.includes(kb.refusalText);
    if (q.kind === 'on-topic') {
      onTopic++;
      if (refusedBeforeModel) gated++;
      const openBefore = sent();
      await service.ask(bots.open, q);
      const reached = sent() > openBefore && containsAllFacts(requestText(), q);
      if (sent() > openBefore) promptChars.push(requestText().length);
      if (reached) {
        retrieved++;
        if (refusedBeforeModel) gatedRetrieved++;
      }
    } else if (q.kind === 'small-talk') {
      smallTalk++;
      if (refusedBeforeModel) gatedSmallTalk++;
    } else if (q.kind === 'off-topic') {
      offTopic++;
      if (!calledModel && restricted.text.trim() === kb.refusalText) offTopicExact++;
    }
  }
  ctx.report('fake provider, restricted chatbots', {
    gate_refusals: share(gated, onTopic), gate_refusals_retrieved: share(gatedRetrieved, retrieved),
    gate_smalltalk: share(gatedSmallTalk, smallTalk), context_recall: share(retrieved, onTopic),
    offtopic_refused_without_model: share(offTopicExact, offTopic), medianRequestChars: median(promptChars),
  });
  await service.close();
  await fake.close();
}

/**
 * The visitor-questions development set (four realistic knowledge bases, paraphrased visitor
 * questions, small talk, off-topic and other-language questions) through the real service path:
 * resources ingested through the readers over HTTP, chatbots with and without the restrict text.
 */
export const benchmark: Benchmark = {
  name: 'visitor questions',
  databases: ['pglite'],
  async run(ctx) {
    await localEngine(ctx);
    if (process.env.BENCH_VQ_LOCAL_ONLY !== '1') await withProvider(ctx);
  },
};
