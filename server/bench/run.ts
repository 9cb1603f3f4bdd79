import fs from 'node:fs/promises';
import { benchmark as behindNginx } from './behind-nginx.bench.js';
import { benchmark as bigTextNeighbour } from './big-text-neighbour.bench.js';
import { benchmark as chatbotGet } from './chatbot-get.bench.js';
import { benchmark as chatQuality } from './chat-quality.bench.js';
import { benchmark as chatStream } from './chat-stream.bench.js';
import { benchmark as conversationListing } from './conversation-listing.bench.js';
import { benchmark as embedConfig } from './embed-config.bench.js';
import { benchmark as notifications } from './notifications.bench.js';
import { benchmark as liveHandoff } from './live-handoff.bench.js';
import { benchmark as largeSite } from './large-site.bench.js';
import { benchmark as resourcesIngestion } from './resources-ingestion.bench.js';
import { benchmark as savedAnswersAndGaps } from './saved-answers-and-gaps.bench.js';
import { benchmark as scannedPdf } from './scanned-pdf.bench.js';
import { benchmark as sentenceEncoder } from './sentence-encoder.bench.js';
import { benchmark as squadRetrieval } from './squad-retrieval.bench.js';
import { benchmark as startUp } from './start-up.bench.js';
import { benchmark as transcription } from './transcription.bench.js';
import { benchmark as visitorQuestions } from './visitor-questions.bench.js';
import { benchmark as websiteDiscovery } from './website-discovery.bench.js';
import type { Benchmark, BenchContext } from './bench-kit.js';
import { postgresAvailable } from './bench-database.js';

/** Every benchmark `npm run bench` runs, in order. `npm run bench -- <filter>` runs the matching ones. */
const BENCHMARKS: Benchmark[] = [
  visitorQuestions,
  chatbotGet,
  chatQuality,
  chatStream,
  behindNginx,
  startUp,
  embedConfig,
  notifications,
  conversationListing,
  savedAnswersAndGaps,
  liveHandoff,
  resourcesIngestion,
  websiteDiscovery,
  largeSite,
  bigTextNeighbour,
  scannedPdf,
  squadRetrieval,
  sentenceEncoder,
  transcription,
];

const filter = process.argv[2]?.toLowerCase();
const full = process.env.BENCH_FULL === '1';
/** `pglite` or `postgres`: run the benchmarks on that database only. */
const onlyDatabase = process.env.BENCH_DATABASE;
const haveProgres = await postgresAvailable();
process.stdout.write(`Parley benchmarks (${full ? 'full' : 'quick'} sizes; BENCH_FULL=1 for full)\n`);
/** Every line reported, also written as JSON to BENCH_REPORT_JSON when set (the answer-quality check reads it). */
const reported: { benchmark: string; database: string; label: string; figures: Record<string, string | number> }[] = [];
for (const benchmark of BENCHMARKS) {
  if (filter && !benchmark.name.toLowerCase().includes(filter)) continue;
  for (const database of benchmark.databases) {
    if (onlyDatabase !== undefined && database !== onlyDatabase) continue;
    if (database === 'postgres' && !haveProgres) {
      process.stdout.write(`\n## ${benchmark.name} [postgres]: skipped, no PostgreSQL server\n`);
      continue;
    }
    process.stdout.write(`\n## ${benchmark.name} [${database}]\n`);
    const ctx: BenchContext = {
      database, full,
      report: (label, figures) => {
        reported.push({ benchmark: benchmark.name, database, label, figures });
        process.stdout.write(`  ${label.padEnd(44)} ${Object.entries(figures).map(([k, v]) => `${k}=${v}`).join('  ')}\n`);
      },
    };
    try {
      await benchmark.run(ctx);
    } catch (err) {
      process.stdout.write(`  FAILED: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    }
  }
}
if (process.env.BENCH_REPORT_JSON) await fs.writeFile(process.env.BENCH_REPORT_JSON, `${JSON.stringify(reported, null, 2)}\n`);
