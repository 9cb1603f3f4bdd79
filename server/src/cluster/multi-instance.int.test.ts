import http from 'node:http';
import { EventStreamDecoder, type Resource, type StreamingEvent } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../features/resources/ingestion/fixtures/fake-servers.js';
import { INGEST_RESOURCE_JOB } from '../features/resources/ingestion/ingestion-worker.js';
import { makePdf } from '../features/resources/ingestion/fixtures/make-pdf.js';
import { FakeModelProvider } from '../test/fakes/fake-model-provider.js';
import { startS3Server, type S3TestServer } from '../test/s3-server.js';
import { startServiceProcess, type ServiceProcess } from '../test/service-process.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/**
 * Proof that instances are stateless (issue 12): three server processes on one PostgreSQL
 * database and one S3-compatible store. A serves HTTP only (JOBS_ENABLED=false); B and C also run
 * jobs. Runs on the PostgreSQL server only: the embedded database belongs to one process.
 */
const onPostgres = process.env.TEST_DATABASE === 'postgres';
const CREATION_LIMIT = 4;

let ctx: TestContext;
let s3: S3TestServer;
let provider: FakeModelProvider;
let site: FakeServer;
let holdPage = true;
let pageRequested: () => void = () => {};
const instances: Record<'a' | 'b' | 'c', ServiceProcess> = {} as never;
/** The instances running jobs that are still alive. */
let workers: ServiceProcess[] = [];

function databaseUrl(): string {
  const settings = ctx.database.db.client.connectionSettings as { user?: string; password?: string; host?: string; port?: number | string; database?: string };
  const credentials = settings.user ? `${encodeURIComponent(settings.user)}${settings.password ? `:${encodeURIComponent(settings.password)}` : ''}@` : '';
  return `postgres://${credentials}${settings.host ?? '127.0.0.1'}:${settings.port ?? 5432}/${settings.database}`;
}

beforeAll(async () => {
  if (!onPostgres) return;
  ctx = await createTestContext();
  s3 = await startS3Server();
  // Answers stream slowly (12 deltas, 150 ms apart), so a stream is still open while another instance dies.
  provider = await FakeModelProvider.start('openai', { deltas: Array.from({ length: 12 }, (_, i) => ` part${i}`), intervalMs: 150 });
  site = await startFakeServer(async (req) => {
    if (req.url !== '/slow') return { status: 404 };
    pageRequested();
    while (holdPage) await new Promise((resolve) => setTimeout(resolve, 20));
    return { body: '<main><p>Lighthouse keepers trimmed the wicks every night.</p></main>' };
  });
  const env = {
    DATABASE_URL: databaseUrl(), ...s3.env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.baseUrl,
    RESOURCE_CREATION_RATE_LIMIT: String(CREATION_LIMIT), CRAWL_ALLOW_PRIVATE_NETWORKS: 'true', JOB_LEASE_MS: '1500',
  };
  [instances.a, instances.b, instances.c] = await Promise.all([
    startServiceProcess({ ...env, JOBS_ENABLED: 'false' }), startServiceProcess(env), startServiceProcess(env),
  ]);
  workers = [instances.b, instances.c];
}, 120_000);
afterAll(async () => {
  holdPage = false;
  for (const instance of Object.values(instances)) await instance.kill();
  await site?.close();
  await provider?.close();
  await s3?.close();
  await ctx?.close();
});

async function call(instance: ServiceProcess, method: string, path: string, apiKey: string, body?: unknown): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${instance.url}${path}`, {
    method, headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function waitUntilProcessed(instance: ServiceProcess, id: string): Promise<Resource> {
  for (;;) {
    const { body } = await call(instance, 'GET', `/v1/resource/${id}`, ctx.org.apiKey);
    if (body.aiProcessingStatus !== 'NOT_STARTED' && body.aiProcessingStatus !== 'IN_PROGRESS') return body as unknown as Resource;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The resource's ingestion jobs (the job storing its sentence vectors follows them). */
const jobsOf = (resourceId: string) => ctx.database.db('jobs').where({ kind: INGEST_RESOURCE_JOB }).whereRaw("payload->>'resourceId' = ?", [resourceId]).select('status', 'attempts', 'locked_by');
const workerPid = (lockedBy: string | null) => Number(lockedBy?.split('-')[0]);

describe.runIf(onPostgres)('several instances on one database and one object store', () => {
  it('ingests a file uploaded through A (no jobs) with another instance\'s worker, reading it from object storage', async () => {
    const form = new FormData();
    form.append('file', new Blob([makePdf(['Lighthouses warn ships of rocks at night.'])]), 'lights.pdf');
    const uploaded = await fetch(`${instances.a.url}/v1/resource/file`, { method: 'POST', headers: { 'x-api-key': ctx.org.apiKey }, body: form });
    expect(uploaded.status).toBe(201);
    const { id } = await uploaded.json() as { id: string };
    expect((await waitUntilProcessed(instances.c, id)).aiProcessingStatus).toBe('DONE');
    // The ingestion's own job: the sentence vectors' job that follows it names the resource too.
    const [job] = await ctx.database.db('jobs').where({ kind: INGEST_RESOURCE_JOB }).whereRaw("payload->>'resourceId' = ?", [id]).select('status', 'locked_by');
    expect(job?.status).toBe('done');
    expect([instances.b.pid, instances.c.pid]).toContain(workerPid(job!.locked_by));
    const found = await ctx.services.resources.retrieve(ctx.org.organisationId, [id], 'What do lighthouses warn ships of?', 1);
    expect(found[0]?.content).toContain('rocks at night');
  });

  it('holds the creation rate limit and the monthly message quota across instances', async () => {
    // A new key: its one-minute window starts with its first request here.
    const { apiKey } = await ctx.newOrganisation();
    const statuses: number[] = [];
    for (const instance of [instances.a, instances.b, instances.c, instances.a, instances.b]) {
      statuses.push((await call(instance, 'POST', '/v1/resource/text', apiKey, { name: 'Note', content: 'A short note.' })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429]);

    const limited = await ctx.newOrganisation({ monthlyMessages: 2 });
    const chatbot = await call(instances.b, 'POST', '/v1/chatbot', limited.apiKey, { name: 'Quota' });
    expect(chatbot.status).toBe(201);
    const ask = { chatbotId: chatbot.body.id, conversation: [{ text: 'Hello?', fromUser: true }] };
    const answers = [];
    for (const instance of [instances.a, instances.c, instances.b]) answers.push((await call(instance, 'POST', '/v1/chatbot/chat', limited.apiKey, ask)).status);
    expect(answers).toEqual([201, 201, 402]);
  });

  it('finishes an ingestion exactly once after the instance running it is killed with SIGKILL', async () => {
    const reached = new Promise<void>((resolve) => { pageRequested = resolve; });
    const created = await call(instances.a, 'POST', '/v1/resource/website', (await ctx.newOrganisation()).apiKey, { url: `${site.url}/slow` });
    expect(created.status).toBe(201);
    const resourceId = created.body.id!;
    await reached;
    const [running] = await jobsOf(resourceId);
    expect(running).toMatchObject({ status: 'running', attempts: 1 });
    const victim = workers.find((instance) => instance.pid === workerPid(running!.locked_by))!;
    await victim.kill('SIGKILL');
    workers = workers.filter((instance) => instance !== victim);
    holdPage = false;
    const chunks = () => ctx.database.db('resource_chunks').where({ resource_id: resourceId }).pluck('content');
    for (;;) {
      const [job] = await jobsOf(resourceId);
      if (job?.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const jobs = await jobsOf(resourceId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect(await chunks()).toEqual(['Lighthouse keepers trimmed the wicks every night.']);
    expect(await ctx.database.db('resources').where({ id: resourceId }).first('ai_processing_status')).toEqual({ ai_processing_status: 'DONE' });
    // The job that follows ingestion stores the chunk's sentence vectors on a surviving instance.
    const unfinished = () => ctx.database.db('jobs').whereRaw("payload->>'resourceId' = ?", [resourceId]).whereNot({ status: 'done' }).pluck('kind');
    while ((await unfinished()).length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const stored = await ctx.database.db('chunk_sentence_vectors as v').join('resource_chunks as c', 'c.id', 'v.chunk_id').where('c.resource_id', resourceId).pluck('v.chunk_id');
    expect(stored).toHaveLength(1);
    expect(await ctx.database.db('jobs').where({ status: 'running' }).count<{ count: number }[]>({ count: '*' })).toEqual([{ count: 0 }]);
  });

  it('keeps a visitor\'s stream on A going while another instance is killed', async () => {
    const chatbot = await call(instances.a, 'POST', '/v1/chatbot', ctx.org.apiKey, { name: 'Visitor desk' });
    const other = workers[0]!;
    const { port } = new URL(instances.a.url);
    const events: StreamingEvent[] = [];
    const done = new Promise<void>((resolve, reject) => {
      let killed = false;
      const decoder = new EventStreamDecoder();
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/v1/embed/${chatbot.body.id}/chat-stream`, headers: { 'content-type': 'application/json' } }, (res) => {
        expect(res.statusCode).toBe(201);
        res.setEncoding('utf8').on('data', (chunk: string) => {
          events.push(...decoder.push(chunk));
          if (!killed && events.length > 0) {
            killed = true;
            void other.kill('SIGKILL');
          }
        }).on('end', () => resolve()).on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ conversation: [{ text: 'Tell me about the lighthouse.', fromUser: true }] }));
    });
    await done;
    expect(events.at(-1)?.type).toBe('streamEnd');
    expect(events.filter((event) => event.type === 'partialResponse')).toHaveLength(12);
  });
});
