import express from 'express';
import { alternate, fmt, listen, load, type Benchmark } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';
import { importBuilt } from './built-modules.js';
import type * as GetStack from './get-stack.js';

/**
 * GET /v1/chatbot/{id} through the full stack (logging, auth, validation, repository, mapping)
 * against a bare Express handler doing the same indexed query on the same database. Both run our
 * code as `npm start` runs it, compiled by esbuild (built-modules.ts).
 */
export const benchmark: Benchmark = {
  name: 'GET /v1/chatbot/{id}: full stack vs bare Express',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const { createApp, loadConfig, ChatbotsRepository, createLogger, createServices } = await importBuilt<typeof GetStack>('server/bench/get-stack.ts');
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'info' });
    // The production logger and request logging, written where it costs the same as a log file
    // but fills no disk.
    const services = createServices(config, database, createLogger('info', '/dev/null'));
    const org = await services.organisations.createOrganisation({ name: 'Bench' });
    const auth = (await services.organisations.authenticate(org.apiKey))!;
    const chatbot = await services.chatbots.create(auth, { name: 'Bench bot', resourceIds: [], showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi', chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8', enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [] });

    const bare = express();
    // The same indexed query the repository runs (the chatbot with its resource ids), nothing else.
    const repository = new ChatbotsRepository(database.db);
    bare.get('/chatbot/:id', async (req, res) => {
      res.json(await repository.find(org.organisationId, req.params.id));
    });
    const full = await listen(createApp(services));
    const baseline = await listen(bare);
    // Many short rounds: this machine's speed drifts by more than the difference measured.
    const rounds = ctx.full ? 31 : 15;
    const options = { concurrency: 16, durationMs: ctx.full ? 1000 : 500 };
    const headers = { 'x-api-key': org.apiKey };
    await load(`${full.url}/v1/chatbot/${chatbot.id}`, { ...options, durationMs: 1000, headers });
    await load(`${baseline.url}/chatbot/${chatbot.id}`, { ...options, durationMs: 1000 });
    const result = await alternate(rounds,
      () => load(`${baseline.url}/chatbot/${chatbot.id}`, options),
      () => load(`${full.url}/v1/chatbot/${chatbot.id}`, { ...options, headers }),
      (r) => r.requestsPerSecond);
    ctx.report('bare Express + same query', { 'req/s': fmt(result.baseline.requestsPerSecond, 0), 'p99 ms': fmt(result.baseline.p99Ms) });
    ctx.report('full stack', {
      'req/s': fmt(result.subject.requestsPerSecond, 0), 'p99 ms': fmt(result.subject.p99Ms),
      errors: result.subject.errors + result.baseline.errors,
    });
    ctx.report(`ratio full/bare, median of ${rounds} rounds (goal >= 0.9)`, {
      'req/s ratio': fmt(result.ratio),
      'p99 ratio (bare/full)': fmt(result.baseline.p99Ms / result.subject.p99Ms),
    });
    full.close();
    baseline.close();
    await database.close();
  },
};
