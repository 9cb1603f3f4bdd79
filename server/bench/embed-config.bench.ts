import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services.js';
import { alternate, fmt, listen, load, type Benchmark } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';

/**
 * What every page view with the widget costs: GET /v1/embed/{id}/config (public, origin checked
 * against 100 allowed domains with the match last, CORS) against the API's own
 * GET /v1/chatbot/{id} (API-key auth, cached) on the same app and database.
 */
export const benchmark: Benchmark = {
  name: 'GET /v1/embed/{id}/config vs GET /v1/chatbot/{id}',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'info', PUBLIC_URL: 'http://127.0.0.1:1' });
    const services = createServices(config, database, createLogger('info', '/dev/null'));
    const org = await services.organisations.createOrganisation({ name: 'Bench' });
    const app = await listen(createApp(services));
    const allowedDomains = [...Array.from({ length: 99 }, (_, i) => `*.site-${i}.example`), 'www.shop.example'];
    const created = await fetch(`${app.url}/v1/chatbot`, {
      method: 'POST', headers: { 'x-api-key': org.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench bot', websiteIntegration: { allowedDomains, bubblePopupMessages: ['Hi'] } }),
    });
    const { id } = await created.json() as { id: string };
    // Many short rounds: this machine's speed drifts by more than the difference measured.
    const rounds = ctx.full ? 31 : 15;
    const options = { concurrency: 16, durationMs: ctx.full ? 1000 : 500 };
    const embed = () => load(`${app.url}/v1/embed/${id}/config`, { ...options, headers: { origin: 'https://www.shop.example' } });
    const api = () => load(`${app.url}/v1/chatbot/${id}`, { ...options, headers: { 'x-api-key': org.apiKey } });
    await load(`${app.url}/v1/embed/${id}/config`, { ...options, durationMs: 1000, headers: { origin: 'https://www.shop.example' } });
    await load(`${app.url}/v1/chatbot/${id}`, { ...options, durationMs: 1000, headers: { 'x-api-key': org.apiKey } });
    const result = await alternate(rounds, api, embed, (r) => r.requestsPerSecond);
    ctx.report('GET /v1/chatbot/{id} (API key)', { 'req/s': fmt(result.baseline.requestsPerSecond, 0), 'p99 ms': fmt(result.baseline.p99Ms) });
    ctx.report('GET /v1/embed/{id}/config (origin + CORS)', {
      'req/s': fmt(result.subject.requestsPerSecond, 0), 'p99 ms': fmt(result.subject.p99Ms), errors: result.subject.errors + result.baseline.errors,
    });
    ctx.report(`ratio embed/API, median of ${rounds} rounds (goal >= 0.8)`, { 'req/s ratio': fmt(result.ratio) });
    app.close();
    await database.close();
  },
};
