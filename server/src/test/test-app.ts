import fs from 'node:fs/promises';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import supertest from 'supertest';
import { inject } from 'vitest';
import { createApp } from '../app.js';
import { answerClientErrors } from '../http/client-errors.js';
import { loadConfig, type Config, type PlanLimits } from '../config.js';
import type { Database } from '../db/knex.js';
import type { CreatedOrganisation } from '../features/organisations/organisations.service.js';
import { createServices, type ServiceOptions, type Services } from '../services.js';
import { createTestDatabase } from './test-database.js';

export interface TestContext {
  services: Services;
  database: Database;
  config: Config;
  /** Base URL of the app listening on an ephemeral port (for fetch, SSE and raw HTTP). */
  url: string;
  /** The first organisation of this context and its key. */
  org: CreatedOrganisation;
  /** supertest with the first organisation's key already set. */
  api: ReturnType<typeof authedAgent>;
  /** supertest without a key. */
  anonymous: supertest.Agent;
  /** Creates another organisation (tenant isolation tests) and returns it with its agent. */
  newOrganisation(plan?: PlanLimits): Promise<CreatedOrganisation & { api: ReturnType<typeof authedAgent> }>;
  /** Starts the job worker (not started by default, so tests control when jobs run). */
  startJobs(): void;
  close(): Promise<void>;
}

function authedAgent(server: Server, apiKey: string) {
  const agent = supertest(server);
  return {
    get: (url: string) => agent.get(url).set('x-api-key', apiKey),
    post: (url: string) => agent.post(url).set('x-api-key', apiKey),
    put: (url: string) => agent.put(url).set('x-api-key', apiKey),
    delete: (url: string) => agent.delete(url).set('x-api-key', apiKey),
  };
}

/** Environment for tests: everything local, nothing from the developer's shell. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  // The sentence encoder is tested on its own (local-answer-model.test.ts, the visitor-questions bench);
  // elsewhere answers rank by words, so tests stay fast and their expected sentences exact.
  // Offline transcription is tested on its own (local-transcription.int.test.ts): elsewhere a video
  // without subtitles ends as it does without the optional runtime, whether it is installed or not.
  return loadConfig({
    DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', CRAWL_ALLOW_PRIVATE_NETWORKS: 'true', ANALYSIS_DELAY_MS: '0', LOCAL_SENTENCE_ENCODER: 'false', LOCAL_TRANSCRIPTION: 'false', ...env,
  });
}

/**
 * A complete app on a fresh copy of the migrated test database (PGlite or PostgreSQL, as the
 * vitest project says), with one organisation and its key.
 */
export async function createTestContext(options: { env?: Record<string, string>; plan?: PlanLimits; services?: ServiceOptions } = {}): Promise<TestContext> {
  const database = await createTestDatabase(inject('testDatabaseKind'), inject('testDatabaseTemplate'), inject('testRunId'));
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-data-'));
  // Listen first, so the config's PUBLIC_URL can name the real port.
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = testConfig(dataDir, { PUBLIC_URL: url, ...options.env });
  const services = createServices(config, database, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), { jobPollIntervalMs: 20, ...options.services });
  server.on('request', createApp(services));
  answerClientErrors(server);
  const org = await services.organisations.createOrganisation({ name: 'Test organisation', plan: options.plan ?? null });
  let jobsStarted = false;
  return {
    services, database, config, url, org,
    api: authedAgent(server, org.apiKey),
    anonymous: supertest.agent(server),
    async newOrganisation(plan) {
      const created = await services.organisations.createOrganisation({ name: 'Other organisation', plan: plan ?? null });
      return { ...created, api: authedAgent(server, created.apiKey) };
    },
    startJobs() {
      if (!jobsStarted) services.worker.start();
      jobsStarted = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (jobsStarted) await services.worker.stop();
      await services.handoff.events.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
