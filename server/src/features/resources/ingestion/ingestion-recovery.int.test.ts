import { spawn } from 'node:child_process';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../../services.js';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import { INGEST_RESOURCE_JOB } from './ingestion-worker.js';
import { runIngestion } from './run-ingestion.js';
import { createResourcesFeature } from '../create-resources.js';

let ctx: TestContext;
let site: FakeServer;
let holdPage = true;
let pageRequested!: () => void;
const extraServices: Services[] = [];

beforeAll(async () => {
  site = await startFakeServer(async (req) => {
    if (req.url === '/slow') {
      pageRequested();
      // A page that never answers while `holdPage`: the crawl is caught mid-job.
      while (holdPage) await new Promise((resolve) => setTimeout(resolve, 20));
      return { body: '<main><p>Recovered page about sencha.</p></main>' };
    }
    return { status: 404 };
  });
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
});
afterAll(async () => {
  holdPage = false;
  for (const services of extraServices) await services.worker.stop();
  await ctx?.close();
  await site?.close();
});

/** A second "process" on the same database: its own services, worker and queue client. */
function anotherInstance(): Services {
  const services = createServices(ctx.config, ctx.database, pino({ level: 'silent' }), { jobPollIntervalMs: 20 });
  extraServices.push(services);
  return services;
}

/** This test database's URL (knex keeps the parsed settings), for a worker in another process. */
function connectionUrl(): string {
  const settings = ctx.database.db.client.connectionSettings as { user?: string; password?: string; host?: string; port?: number | string; database?: string };
  const credentials = settings.user ? `${encodeURIComponent(settings.user)}${settings.password ? `:${encodeURIComponent(settings.password)}` : ''}@` : '';
  return `postgres://${credentials}${settings.host ?? '127.0.0.1'}:${settings.port ?? 5432}/${settings.database}`;
}

async function jobsOf(resourceId: string) {
  return ctx.database.db('jobs').whereRaw("payload->>'resourceId' = ?", [resourceId]).select('id', 'status', 'attempts', 'locked_by');
}

describe('restart recovery', () => {
  it('resumes a job whose worker died mid-job and applies its result exactly once', async () => {
    const created = await createResource(ctx.api, 'text', { name: 'Crash', content: 'Gyokuro is shaded before harvest.' });
    // A worker takes the job, marks the resource IN_PROGRESS, and dies (its lease lapses, nothing else happens).
    const crashed = await ctx.services.jobs.claim([INGEST_RESOURCE_JOB], 'crashed-worker', 1);
    expect(crashed).toBeDefined();
    await ctx.database.db('resources').where({ id: created.id }).update({ ai_processing_status: 'IN_PROGRESS' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Restart: the embedded database requeues what was running (runtime.ts); a server's lease expires.
    if (ctx.database.kind === 'pglite') await ctx.services.jobs.requeueRunning();
    const restarted = anotherInstance();
    restarted.worker.start();
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    const chunks = await ctx.database.db('resource_chunks').where({ resource_id: created.id }).select('id');
    expect(chunks).toHaveLength(1);
    expect(await jobsOf(created.id)).toEqual([expect.objectContaining({ status: 'done' })]);
    await restarted.worker.stop();

    // The dead worker comes back (a zombie after a long pause) and finishes its copy, which would
    // differ (the source changed meanwhile): the lost lease makes it drop the result.
    await ctx.database.db('resources').where({ id: created.id }).update({ text_content: 'A different text the zombie would index.' });
    const zombie = createResourcesFeature(ctx.config, ctx.database.db, ctx.services.jobs, anotherInstance().worker, pino({ level: 'silent' })).ingestion;
    await runIngestion(zombie, crashed! as Parameters<typeof runIngestion>[1], new AbortController().signal);
    expect(await ctx.database.db('resource_chunks').where({ resource_id: created.id }).select('id')).toEqual(chunks);
    expect(await ctx.database.db('resource_chunks').where({ resource_id: created.id }).pluck('content')).toEqual(['Gyokuro is shaded before harvest.']);
    expect((await ctx.api.get(`/v1/resource/${created.id}`)).body.aiProcessingStatus).toBe('DONE');
  });

  it.runIf(process.env.TEST_DATABASE === 'postgres')('recovers when the worker process is killed mid-job (SIGKILL): the job completes once', async () => {
    holdPage = true;
    const reached = new Promise<void>((resolve) => { pageRequested = resolve; });
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/slow` });
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'worker-process.ts')], {
      env: { ...process.env, DATABASE_URL: connectionUrl(), DATA_DIR: ctx.config.dataDir, JOB_LEASE_MS: '1000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await reached;
      expect(await jobsOf(created.id)).toEqual([expect.objectContaining({ status: 'running', attempts: 1 })]);
      expect((await ctx.api.get(`/v1/resource/${created.id}`)).body.aiProcessingStatus).toBe('IN_PROGRESS');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    holdPage = false;
    // Restart: a new worker takes the job once the dead one's lease has run out.
    const restarted = anotherInstance();
    restarted.worker.start();
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('DONE');
    expect(await jobsOf(created.id)).toEqual([expect.objectContaining({ status: 'done', attempts: 2 })]);
    expect(await ctx.database.db('resource_chunks').where({ resource_id: created.id }).pluck('content')).toEqual(['Recovered page about sencha.']);
    await restarted.worker.stop();
  });

  it('hands an interrupted job back at shutdown without counting the attempt; the next instance completes it once', async () => {
    holdPage = true;
    const first = anotherInstance();
    const reached = new Promise<void>((resolve) => { pageRequested = resolve; });
    const created = await createResource(ctx.api, 'website', { url: `${site.url}/slow` });
    first.worker.start();
    await reached;
    expect((await ctx.api.get(`/v1/resource/${created.id}`)).body.aiProcessingStatus).toBe('IN_PROGRESS');
    await first.worker.stop();
    expect(await jobsOf(created.id)).toEqual([expect.objectContaining({ status: 'queued', attempts: 0, locked_by: null })]);
    holdPage = false;
    const second = anotherInstance();
    second.worker.start();
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource.aiProcessingStatus).toBe('DONE');
    expect(await jobsOf(created.id)).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })]);
    expect(await ctx.database.db('resource_chunks').where({ resource_id: created.id }).pluck('content')).toEqual(['Recovered page about sencha.']);
    await second.worker.stop();
  });

  it('never lets two workers run the same job at once', async () => {
    const workers = [anotherInstance(), anotherInstance(), anotherInstance()];
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await createResource(ctx.api, 'text', { name: `n${i}`, content: `Matcha fact number ${i}.` })).id);
    for (const services of workers) services.worker.start();
    for (const id of ids) expect((await waitForProcessing(ctx.api, id)).aiProcessingStatus).toBe('DONE');
    for (const id of ids) {
      expect(await jobsOf(id)).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })]);
      expect(await ctx.database.db('resource_chunks').where({ resource_id: id }).count<{ count: number }[]>({ count: '*' })).toEqual([{ count: 1 }]);
    }
  });
});
