import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { retrieveChunks } from '../src/features/resources/retrieve-chunks.js';
import { createServices, type Services } from '../src/services.js';
import { fmt, type Benchmark } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';
import { fileURLToPath } from 'node:url';

/** SQuAD v1.1 dev beside the repository (../shared/data), or under BENCH_DATA_DIR. */
const SQUAD_V1 = `${process.env.BENCH_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data/', import.meta.url))}/squad-v1.1/dev-v1.1.json`;

interface SquadFile { data: { paragraphs: { context: string; qas: { question: string }[] }[] }[] }

/**
 * The ranking the project started with (ts_rank_cd over an OR of the question's lexemes), kept
 * here as the in-run baseline that the BM25 ranking is measured against.
 */
async function rankCdBaseline(db: Knex, organisationId: string, resourceIds: readonly string[], question: string, k: number): Promise<string[]> {
  const result = await db.raw(
    `WITH q AS (SELECT to_tsquery('english', array_to_string(array(
        SELECT quote_literal(lexeme) FROM unnest(to_tsvector('english', ?)) ), ' | ')) AS query)
     SELECT c.resource_id FROM resource_chunks c, q
     WHERE c.organisation_id = ? AND c.resource_id = ANY(?::text[]) AND q.query IS NOT NULL AND c.tsv @@ q.query
     ORDER BY ts_rank_cd(c.tsv, q.query) DESC, c.id LIMIT ?`,
    [question, organisationId, [...resourceIds], k],
  );
  return (result.rows as { resource_id: string }[]).map((row) => row.resource_id);
}

/** Indexes every paragraph as one TEXT resource through the real pipeline (service → queue → worker). */
async function indexParagraphs(services: Services, paragraphs: string[]): Promise<{ organisationId: string; ids: string[]; seconds: number }> {
  const org = await services.organisations.createOrganisation({ name: 'SQuAD' });
  const auth = (await services.organisations.authenticate(org.apiKey))!;
  const started = performance.now();
  const ids: string[] = [];
  for (const [index, content] of paragraphs.entries()) {
    ids.push((await services.resources.createText(auth, { name: `paragraph ${index}`, content, tags: [] })).id);
  }
  services.worker.start();
  while (await services.jobs.pendingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await services.worker.stop();
  const seconds = (performance.now() - started) / 1000;
  const done = await services.database.db('resources').where({ organisation_id: org.organisationId, ai_processing_status: 'DONE' }).count<{ count: number }[]>({ count: '*' });
  if (Number(done[0]!.count) !== paragraphs.length) throw new Error(`only ${done[0]!.count} of ${paragraphs.length} paragraphs were indexed`);
  return { organisationId: org.organisationId, ids, seconds };
}

interface Recall { r1: number; r5: number; r10: number; p50: number; p95: number; n: number }

async function evaluate(questions: { question: string; gold: string }[], rank: (question: string) => Promise<string[]>): Promise<Recall> {
  let r1 = 0; let r5 = 0; let r10 = 0;
  const latencies: number[] = [];
  for (const { question, gold } of questions) {
    const started = performance.now();
    const ranked = await rank(question);
    latencies.push(performance.now() - started);
    const position = ranked.indexOf(gold);
    if (position === 0) r1++;
    if (position >= 0 && position < 5) r5++;
    if (position >= 0 && position < 10) r10++;
  }
  latencies.sort((a, b) => a - b);
  const n = questions.length;
  return { r1: r1 / n, r5: r5 / n, r10: r10 / n, p50: latencies[Math.floor(n / 2)]!, p95: latencies[Math.floor(n * 0.95)]!, n };
}

/**
 * Retrieval quality on SQuAD v1.1 dev: the 2,067 paragraphs are indexed as resources through the
 * ingestion pipeline, then each question is asked over all of them; a hit is the question's own
 * paragraph among the top k. A plain BM25 (minisearch) scores R@5 0.878 on this set.
 * Quick run: a sample of the questions; BENCH_FULL=1: all 10,570.
 */
export const benchmark: Benchmark = {
  name: 'SQuAD v1.1 retrieval: BM25 in SQL vs ts_rank_cd',
  databases: ['postgres', 'pglite'],
  async run(ctx) {
    const squad = JSON.parse(await fs.readFile(SQUAD_V1, 'utf8')) as SquadFile;
    const paragraphs = squad.data.flatMap((article) => article.paragraphs);
    const database = await benchDatabase(ctx.database);
    try {
      const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', JOB_CONCURRENCY: '2' });
      // Indexing until DONE; the sentence vectors stored after it are timed by the chat streaming benchmark.
      const services = createServices(config, database, pino({ level: 'silent' }), { jobPollIntervalMs: 10, storeSentenceVectors: false });
      const { organisationId, ids, seconds } = await indexParagraphs(services, paragraphs.map((p) => p.context));
      const megabytes = paragraphs.reduce((sum, p) => sum + Buffer.byteLength(p.context), 0) / 1e6;
      ctx.report('indexing (2,067 TEXT resources, pipeline)', { seconds: fmt(seconds, 1), 'MB/s': fmt(megabytes / seconds), 'resources/s': fmt(ids.length / seconds, 0) });
      await database.db.raw('ANALYZE resource_chunks');
      const all = paragraphs.flatMap((p, index) => p.qas.map((qa) => ({ question: qa.question, gold: ids[index]! })));
      // Quick run: a fixed sample (every 10th question; every 20th on the slower embedded database).
      const every = ctx.full ? 1 : ctx.database === 'pglite' ? 20 : 10;
      const questions = all.filter((_, index) => index % every === 0);
      const baseline = await evaluate(questions, (q) => rankCdBaseline(database.db, organisationId, ids, q, 10));
      const subject = await evaluate(questions, async (q) => (await retrieveChunks(database.db, organisationId, ids, q, 10)).map((c) => c.resourceId));
      const line = (r: Recall) => ({ questions: r.n, 'R@1': fmt(r.r1, 3), 'R@5': fmt(r.r5, 3), 'R@10': fmt(r.r10, 3), 'p50 ms': fmt(r.p50, 1), 'p95 ms': fmt(r.p95, 1) });
      ctx.report('baseline: ts_rank_cd, OR of lexemes', line(baseline));
      ctx.report('retrieveChunks: BM25 in SQL', line(subject));
      ctx.report('ratio BM25/baseline (minisearch R@5 0.878)', { 'R@5 ratio': fmt(subject.r5 / baseline.r5), 'R@1 ratio': fmt(subject.r1 / baseline.r1), 'p50 ratio': fmt(subject.p50 / baseline.p50) });
    } finally {
      await database.close();
    }
  },
};
