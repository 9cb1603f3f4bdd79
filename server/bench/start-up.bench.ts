import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { startServiceProcess } from '../src/test/service-process.js';
import { benchDatabase } from './bench-database.js';
import { fmt, type Benchmark } from './bench-kit.js';
import { BARE_SERVICE, chatbotOver, untilOk } from './chat-stream.bench.js';
import { loadSquadText } from './squad-corpus.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * Start-up of the built server (`npm start`'s flags) on a database that already holds a chatbot
 * over 10,000 chunks, as after a restart or when an instance is added: milliseconds from spawning
 * node to the first 200 of `/health` (it serves) and of `/health/ready` (its warm-up loaded the
 * encoder and the chatbot's term index). Alternated with the bench's bare floor service
 * (bare-stream-service.mjs: node, the database driver, one query, `node:http`) started on the same
 * database, whose time to its first `/health` is the baseline. Jobs are off, so no background
 * encoding of the chunks' sentence vectors competes.
 */
export const benchmark: Benchmark = {
  name: 'Start-up of the built server',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const database = await benchDatabase(ctx.database);
    try {
      const services = createServices(loadConfig({ DATA_DIR: database.dataDir }), database, pino({ level: 'silent' }));
      const org = await services.organisations.createOrganisation({ name: 'Bench' });
      await chatbotOver(services, org, (await loadSquadText()).paragraphs, 10_000);
      await database.release();
      const env = { LOG_LEVEL: 'warn', DATA_DIR: database.dataDir, JOBS_ENABLED: 'false', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ...database.serviceEnv };
      const timeStart = async (script?: string) => {
        const started = performance.now();
        const service = await startServiceProcess(env, script ? { script } : { built: true });
        try {
          await untilOk(`${service.url}/health`);
          const serving = performance.now() - started;
          if (!script) await untilOk(`${service.url}/health/ready`);
          return { serving, ready: performance.now() - started };
        } finally {
          await service.kill();
        }
      };
      const bare: number[] = [], serving: number[] = [], ready: number[] = [];
      for (let round = 0; round < (ctx.full ? 9 : 5); round++) {
        bare.push((await timeStart(BARE_SERVICE)).serving);
        const times = await timeStart();
        serving.push(times.serving);
        ready.push(times.ready);
      }
      ctx.report('built server, 10k chunks, median of alternated starts', {
        bareFloorMs: fmt(median(bare), 0), servingMs: fmt(median(serving), 0), readyMs: fmt(median(ready), 0),
        servingVsFloor: fmt(median(serving) / median(bare)), readyVsFloor: fmt(median(ready) / median(bare)),
      });
    } finally {
      await database.close();
    }
  },
};
