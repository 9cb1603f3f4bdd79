import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/db/ids.js';
import { makePdf } from '../src/features/resources/ingestion/fixtures/make-pdf.js';
import { startFakeWebsite } from '../src/features/resources/ingestion/fixtures/fake-servers.js';
import { replaceChunks } from '../src/features/resources/ingestion/chunk-staging.js';
import { chunkSections } from '../src/features/resources/ingestion/stages/chunk-text.js';
import type { AuthContext } from '../src/features/organisations/organisations.service.js';
import { createServices, type Services } from '../src/services.js';
import { measureLocalAnswers, type AnswerLatency } from './answer-latency.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';
import { assertResourceDone, drainJobs } from './bench-ingestion.js';
import { benchDatabase } from './bench-database.js';

const SQUAD_V1 = `${process.env.BENCH_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data/', import.meta.url))}/squad-v1.1/dev-v1.1.json`;

interface Corpus { paragraphs: string[]; questions: string[] }

async function loadCorpus(): Promise<Corpus> {
  const squad = JSON.parse(await fs.readFile(SQUAD_V1, 'utf8')) as { data: { paragraphs: { context: string; qas: { question: string }[] }[] }[] };
  const paragraphs = squad.data.flatMap((article) => article.paragraphs);
  return { paragraphs: paragraphs.map((p) => p.context), questions: paragraphs.flatMap((p) => p.qas.map((qa) => qa.question)) };
}


/** Text: MB/s for a small and a large document (growth shows whether cost is linear in size). */
async function textThroughput(ctx: BenchContext, services: Services, auth: AuthContext, corpus: Corpus): Promise<void> {
  const sizes = ctx.full ? [500_000, 4_900_000] : [200_000, 2_000_000];
  const rates: number[] = [];
  for (const size of sizes) {
    let content = '';
    for (let i = 0; content.length < size; i++) content += `${corpus.paragraphs[i % corpus.paragraphs.length]}\n\n`;
    content = content.slice(0, size);
    const started = performance.now();
    const { id } = await services.resources.createText(auth, { name: 'big', content, tags: [] });
    const seconds = await drainJobs(services, started);
    await assertResourceDone(services, id);
    rates.push(Buffer.byteLength(content) / 1e6 / seconds);
    ctx.report(`text ${fmt(size / 1e6, 1)} MB`, { seconds: fmt(seconds), 'MB/s': fmt(rates.at(-1)!) });
  }
  ctx.report('text throughput ratio large/small (1 = linear)', { ratio: fmt(rates[1]! / rates[0]!) });
}

/** A PDF of several hundred pages: pages/s through unpdf, chunking and indexing. */
async function pdfThroughput(ctx: BenchContext, services: Services, auth: AuthContext, corpus: Corpus): Promise<void> {
  const pages = ctx.full ? 800 : 300;
  const pdf = makePdf(Array.from({ length: pages }, (_, i) => corpus.paragraphs[i % corpus.paragraphs.length]!));
  const upload = path.join(services.config.dataDir, 'bench.pdf');
  await fs.writeFile(upload, pdf);
  const started = performance.now();
  const resource = await services.resources.createFile(auth, { file: { path: upload, size: pdf.length, originalName: 'bench.pdf', claimedType: 'application/pdf' }, fields: {} });
  const seconds = await drainJobs(services, started);
  await assertResourceDone(services, resource.id);
  ctx.report(`PDF ${pages} pages (${fmt(pdf.length / 1e6, 1)} MB)`, { seconds: fmt(seconds), 'pages/s': fmt(pages / seconds, 0) });
}

/** Crawling a static site on 127.0.0.1: pages/s, against plain sequential GETs of the same pages. */
async function crawlThroughput(ctx: BenchContext, services: Services, auth: AuthContext, corpus: Corpus): Promise<void> {
  const count = ctx.full ? 1000 : 200;
  const pages: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    pages[`/p${i}`] = `<html><head><title>Page ${i}</title></head><body><nav>Home | About</nav><main><h1>Page ${i}</h1><p>${corpus.paragraphs[i % corpus.paragraphs.length]}</p></main><footer>(c)</footer></body></html>`;
  }
  const site = await startFakeWebsite(pages);
  try {
    const urls = Object.keys(pages).map((p) => `${site.url}${p}`);
    const rawStarted = performance.now();
    const agent = new http.Agent({ keepAlive: true });
    for (const url of urls) await new Promise<void>((resolve, reject) => http.get(url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject));
    agent.destroy();
    const rawSeconds = (performance.now() - rawStarted) / 1000;
    const started = performance.now();
    const resource = await services.resources.createWebsite(auth, { url: urls[0]!, subLinks: urls.slice(1), syncFrequency: 'NEVER', settings: {}, tags: [] });
    const seconds = await drainJobs(services, started);
    await assertResourceDone(services, resource.id);
    ctx.report(`crawl ${count} pages from 127.0.0.1`, { seconds: fmt(seconds), 'pages/s': fmt(count / seconds, 0), 'raw GET pages/s': fmt(count / rawSeconds, 0) });
    ctx.report('crawl ratio crawler/raw GET', { ratio: fmt(rawSeconds / seconds) });
  } finally {
    await site.close();
  }
}

/**
 * The local engine's whole answer (retrieval and sentence ranking, as a chat prepares it) over 1k,
 * 10k (and 100k with BENCH_FULL=1) chunks, p50 and growth against 1k: ranking by words, and by
 * meaning too the first time the passages' sentences are met and once the encoder has them.
 */
async function answerLatency(ctx: BenchContext, services: Services, corpus: Corpus): Promise<void> {
  const { db } = services.database;
  const org = await services.organisations.createOrganisation({ name: 'Latency' });
  const sizes = ctx.full ? [1_000, 10_000, 100_000] : [1_000, 10_000];
  const ids: string[] = [];
  let inserted = 0;
  let base: AnswerLatency | undefined;
  for (const size of sizes) {
    // Resources of 100 chunks each, cut from SQuAD paragraphs by the real chunker.
    while (inserted < size) {
      const id = newId();
      await db('resources').insert({ id, organisation_id: org.organisationId, creator: org.userId, file_name: 'bench', type: 'TEXT', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
      const sections = Array.from({ length: 100 }, (_, i) => ({ provenance: { page: i + 1 }, units: [{ text: corpus.paragraphs[(inserted + i) % corpus.paragraphs.length]! }] }));
      const chunks = chunkSections(sections, { targetWords: 10_000, overlapWords: 0 });
      await replaceChunks(db, { resourceId: id, organisationId: org.organisationId }, chunks);
      ids.push(id);
      inserted += chunks.length;
    }
    await db.raw('ANALYZE resource_chunks');
    // Different questions at each size, so the encoder meets their passages' sentences for the first time.
    const questions = Array.from({ length: 200 }, (_, i) => corpus.questions[(i * 97 + size) % corpus.questions.length]!);
    const latency = await measureLocalAnswers(services, org.organisationId, ids, questions);
    base ??= latency;
    ctx.report(`local answer over ${inserted} chunks (${ids.length} resources), p50 ms`, {
      retrieval: fmt(latency.retrieval, 1), words: fmt(latency.words, 1), 'meaning, cached': fmt(latency.meaningCached, 1), 'meaning, first': fmt(latency.meaningFirst, 0),
      'growth vs 1k (words)': fmt(latency.words / base.words), 'growth vs 1k (cached)': fmt(latency.meaningCached / base.meaningCached),
    });
  }
}

/**
 * Ingestion throughput (text MB/s, PDF pages/s, crawl pages/s) through the real pipeline, and
 * the local answer's latency as the index grows. Quick sizes by default; BENCH_FULL=1 for full ones.
 */
export const benchmark: Benchmark = {
  name: 'Resources: ingestion throughput and answer latency growth',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const corpus = await loadCorpus();
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', CRAWL_ALLOW_PRIVATE_NETWORKS: 'true' });
    // Ingestion until DONE; the sentence vectors stored after it are timed by the chat streaming benchmark.
    const services = createServices(config, database, pino({ level: 'silent' }), { jobPollIntervalMs: 10, storeSentenceVectors: false });
    services.worker.start();
    try {
      const org = await services.organisations.createOrganisation({ name: 'Bench' });
      const auth = (await services.organisations.authenticate(org.apiKey))!;
      await textThroughput(ctx, services, auth, corpus);
      await pdfThroughput(ctx, services, auth, corpus);
      await crawlThroughput(ctx, services, auth, corpus);
      await answerLatency(ctx, services, corpus);
    } finally {
      await services.worker.stop();
      await database.close();
    }
  },
};
