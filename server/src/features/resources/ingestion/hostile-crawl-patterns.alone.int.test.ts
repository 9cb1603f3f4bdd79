import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Resource } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { adminSocketPath } from '../../../admin/admin-socket.js';
import type { Database } from '../../../db/knex.js';
import type { CreatedOrganisation } from '../../organisations/organisations.service.js';
import { watchHealth } from '../../../test/health-watch.js';
import { startServiceProcess, type ServiceProcess } from '../../../test/service-process.js';
import { createTestDatabase } from '../../../test/test-database.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';

/**
 * Red-team finding "ReDoS from robots.txt and includePaths": a crawl whose robots.txt and path
 * filters carry the worst patterns the limits allow, on long paths of one letter, must not stall
 * the service. The service runs in its own process (as in production) and `/health` is polled
 * from here; the RegExps the patterns used to become would have frozen it for minutes.
 */
const LONG = 'a'.repeat(1900);
/**
 * 2,000 rules (the most kept), within the 512 KiB read of robots.txt: 500 (the most kept whole)
 * with 10 wildcards whose last literal never occurs, so each reads the whole path, and 1,500
 * literal ones that agree with the path for 240 characters.
 */
const ROBOTS = `User-agent: *\n${[
  ...Array.from({ length: 500 }, (_, i) => `Disallow: /${'*a'.repeat(9)}*${'a'.repeat(180)}b${i}`),
  ...Array.from({ length: 1500 }, (_, i) => `Disallow: /${'a'.repeat(240)}c${i}`),
].join('\n')}\n`;
/**
 * 100 patterns per list of about 300 characters: 10 with 10 wildcards (the most a list has), failing at the last character,
 * and 90 literal ones; one include matches the pages.
 */
const LITERALS = Array.from({ length: 90 }, (_, i) => `/${'a'.repeat(290)}/${String(i).padStart(8, '0')}`);
const INCLUDE = [...LITERALS, ...Array.from({ length: 9 }, () => `/${'**a'.repeat(9)}*${'a'.repeat(270)}z`), '/**/page-*'];
const EXCLUDE = [...LITERALS, ...Array.from({ length: 10 }, () => `/${'*a'.repeat(9)}*${'a'.repeat(279)}z`)];
const PAGES = 8;
const OTHERS = 400;
const pagePath = (i: number) => `/${LONG}/page-${i}`;
const otherPath = (i: number) => `/${LONG}/other-${i}`;

let site: FakeServer;
let database: Database | undefined;
let dataDir: string;
let service: ServiceProcess;

function answer(url: string): { status?: number; type?: string; body?: string } {
  if (url === '/robots.txt') return { type: 'text/plain', body: ROBOTS };
  if (url === '/sitemap.xml') {
    const paths = [...Array.from({ length: OTHERS }, (_, i) => otherPath(i)), ...Array.from({ length: PAGES }, (_, i) => pagePath(i))];
    return { type: 'application/xml', body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${site.url}${p}</loc></url>`).join('')}</urlset>` };
  }
  const links = Array.from({ length: 100 }, (_, i) => `<a href="${otherPath(OTHERS + i)}">more</a>`).join(' ');
  const page = /\/page-(\d+)$/.exec(url)?.[1] ?? (url === '/' ? 'home' : undefined);
  if (page === undefined) return { status: 404, body: 'not found' };
  return { body: `<html><body><nav>${links}</nav><main><p>Page ${page} tells how the lighthouse lamp was trimmed.</p></main></body></html>` };
}

/** Creates an organisation through the service's admin socket (the embedded database belongs to its process). */
function createOrganisation(name: string): Promise<CreatedOrganisation> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: adminSocketPath(dataDir), method: 'POST', path: '/' }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
        if (res.statusCode === 200) resolve(JSON.parse(body) as CreatedOrganisation);
        else reject(new Error(body));
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ command: 'create', org: name }));
  });
}

function databaseUrl(db: Database): string {
  const settings = db.db.client.connectionSettings as { user?: string; password?: string; host?: string; port?: number | string; database?: string };
  const credentials = settings.user ? `${encodeURIComponent(settings.user)}${settings.password ? `:${encodeURIComponent(settings.password)}` : ''}@` : '';
  return `postgres://${credentials}${settings.host ?? '127.0.0.1'}:${settings.port ?? 5432}/${settings.database}`;
}

async function call<T = Record<string, unknown>>(method: string, route: string, apiKey: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${service.url}${route}`, {
    method, headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

beforeAll(async () => {
  site = await startFakeServer((req) => answer(req.url ?? '/'));
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-hostile-crawl-'));
  if (inject('testDatabaseKind') === 'postgres') database = await createTestDatabase('postgres', inject('testDatabaseTemplate'), inject('testRunId'));
  service = await startServiceProcess({
    DATA_DIR: dataDir, CRAWL_ALLOW_PRIVATE_NETWORKS: 'true', LOCAL_SENTENCE_ENCODER: 'false', LOCAL_TRANSCRIPTION: 'false',
    ...(database ? { DATABASE_URL: databaseUrl(database) } : {}),
  });
}, 60_000);
afterAll(async () => {
  await service?.kill();
  await database?.close();
  await site?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('a crawl with the worst robots.txt and path patterns the limits allow', () => {
  it('keeps /health answering within 500 ms and serves another organisation meanwhile', { timeout: 120_000 }, async () => {
    const [crawling, other] = [await createOrganisation('Crawling organisation'), await createOrganisation('Other organisation')];
    const watch = watchHealth(service.url, 100);
    const created = await call('POST', '/v1/resource/website', crawling.apiKey, {
      url: `${site.url}/`, settings: { discovery: 'SITEMAP_AND_LINKS', maxPages: PAGES + 1, maxDepth: 1, includePaths: INCLUDE, excludePaths: EXCLUDE },
    });
    expect(created.status).toBe(201);

    // While the crawl reads the sitemap, another organisation's requests are answered.
    await expect.poll(() => site.requests.some((request) => request.path === '/sitemap.xml'), { timeout: 30_000, interval: 50 }).toBe(true);
    const chatbot = await call('POST', '/v1/chatbot', other.apiKey, { name: 'Harbour desk' });
    expect(chatbot.status).toBe(201);
    expect((await call<unknown[]>('GET', '/v1/chatbot/all', other.apiKey)).body).toEqual([expect.objectContaining({ id: chatbot.body.id })]);
    const servedBefore = site.requests.length;

    let resource: Resource;
    for (;;) {
      resource = (await call<Resource>('GET', `/v1/resource/${String(created.body.id)}`, crawling.apiKey)).body;
      if (resource.aiProcessingStatus !== 'NOT_STARTED' && resource.aiProcessingStatus !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const report = await watch.stop();

    expect(resource.aiProcessingStatus).toBe('DONE');
    // The pages the sitemap and the filters allow were crawled (the home page and PAGES pages), after the other organisation was served.
    const pages = site.requests.filter((request) => request.path === '/' || request.path.includes('/page-'));
    expect(pages).toHaveLength(PAGES + 1);
    expect(site.requests.length).toBeGreaterThan(servedBefore);
    expect(report.failures).toEqual([]);
    expect(report.polls).toBeGreaterThan(10);
    expect(report.slowestMs).toBeLessThan(500);
  });
});
