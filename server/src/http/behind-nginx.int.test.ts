import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { EventStreamDecoder, MAX_UPLOAD_BYTES } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../features/resources/ingestion/fixtures/make-pdf.js';
import { FakeModelProvider } from '../test/fakes/fake-model-provider.js';
import { findNginx, NGINX_SITE_FILE, startNginx, type NginxProcess } from '../test/nginx.js';
import { startServiceWithTenants, type ServiceWithTenants, type Tenant } from '../test/tenants-on-service.js';

/**
 * Parley behind a real nginx running the site of docs/deployment-nginx.md (docs/nginx/parley.conf,
 * changed only in where it listens and where the service is), in front of the whole server in its
 * own process; and three variants of it, each named below with what it changes.
 *
 * Runs on PGlite only: nothing here depends on the database (the proxy sees HTTP), and PGlite is
 * what a single self-hosted instance runs by default; a second run on PostgreSQL would only repeat
 * the 100 MB upload on the two shared cores. Skipped when no nginx is installed (CI installs
 * Debian's through .ci/prepare-system.sh).
 */
// Clients connect from 127.0.0.2 and up, which only Linux routes to loopback without setup.
const nginxBinary = process.platform === 'linux' ? findNginx() : undefined;
const onPglite = process.env.TEST_DATABASE === 'pglite';
/** The slow-client test's site waits this long instead of the guide's 30 s. */
const CLIENT_BODY_TIMEOUT_S = 2;
const SESSION_LIMIT = 2;
/** A streamed answer: DELTAS partial responses, DELTA_GAP_MS apart. */
const DELTAS = 8;
const DELTA_GAP_MS = 250;

let provider: FakeModelProvider;
let service: ServiceWithTenants;
let tenant: Tenant;
/** The recommended site, as the guide shows it. */
let nginx: NginxProcess;
/** The same with a client_body_timeout the slow-client test can wait for. */
let impatientSite: NginxProcess;
/** A bare site on nginx's defaults (HTTP/1.0 to the service, proxy_buffering on): only the service's X-Accel-Buffering: no keeps it streaming. */
let bareSite: NginxProcess;
/** The bare site ignoring that header: the control showing that buffering is seen. */
let deafSite: NginxProcess;

/** nginx's defaults instead of the guide's streaming lines. */
const BARE = { 'proxy_buffering off;': 'proxy_buffering on;', 'proxy_http_version 1.1;': 'proxy_http_version 1.0;' };

beforeAll(async () => {
  if (!nginxBinary || !onPglite) return;
  provider = await FakeModelProvider.start('openai', { deltas: Array.from({ length: DELTAS }, (_, i) => ` part${i}`), intervalMs: DELTA_GAP_MS });
  service = await startServiceWithTenants(1, {
    OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.baseUrl,
    // nginx connects from 127.0.0.1; test clients connect to nginx from 127.0.0.2 and up.
    TRUST_PROXY: '127.0.0.1',
    EMBED_SESSION_RATE_LIMIT: String(SESSION_LIMIT),
    // Uploads are only stored: their ingestion is not what is tested.
    JOBS_ENABLED: 'false', LOCAL_SENTENCE_ENCODER: 'false',
  });
  tenant = service.tenants[0]!;
  const upstream = new URL(service.service.url).host;
  [nginx, impatientSite, bareSite, deafSite] = await Promise.all([
    startNginx(nginxBinary, { upstream }),
    startNginx(nginxBinary, { upstream, replace: { 'client_body_timeout 30s;': `client_body_timeout ${CLIENT_BODY_TIMEOUT_S}s;` } }),
    startNginx(nginxBinary, { upstream, replace: BARE }),
    startNginx(nginxBinary, { upstream, replace: { ...BARE, 'proxy_buffering off;': 'proxy_buffering on; proxy_ignore_headers X-Accel-Buffering;' } }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([nginx?.stop(), impatientSite?.stop(), bareSite?.stop(), deafSite?.stop()]);
  await service?.close();
  await provider?.close();
});

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string }

/** One request over a connection of its own, from the given loopback address. */
function request(baseUrl: string, options: { method: string; path: string; from?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: hostname, port, method: options.method, path: options.path, localAddress: options.from, agent: false,
      headers: { ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }), ...options.headers },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body })).on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Streams a chat answer and notes when each partial response arrived (ms after the first byte was asked for). */
function streamChat(baseUrl: string, chatbotId: string): Promise<{ status: number; arrivals: number[]; last?: string }> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const decoder = new EventStreamDecoder();
    const arrivals: number[] = [];
    let last: string | undefined;
    const req = http.request({
      host: hostname, port, method: 'POST', path: '/v1/chatbot/chat-stream', agent: false,
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
    }, (res) => {
      res.setEncoding('utf8').on('data', (chunk: string) => {
        for (const event of decoder.push(chunk)) {
          if (event.type === 'partialResponse') arrivals.push(performance.now() - started);
          last = event.type;
        }
      }).on('end', () => resolve({ status: res.statusCode!, arrivals, last })).on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ chatbotId, conversation: [{ text: 'Tell me about the lighthouse.', fromUser: true }] }));
  });
}

const MISSING = 'needs Linux and an nginx binary: apt-get install nginx (as .ci/prepare-system.sh does)';
if (!nginxBinary && onPglite) console.warn(`behind-nginx.int.test.ts skipped: ${MISSING}`);
describe.skipIf(nginxBinary !== undefined)('behind nginx', () => {
  it.skip(MISSING, () => {});
});

describe.runIf(nginxBinary !== undefined && onPglite)('behind nginx (docs/nginx/parley.conf)', () => {
  it('shows the tested site verbatim in the deployment guide', async () => {
    const guide = await fs.readFile(path.join(path.dirname(NGINX_SITE_FILE), '..', 'deployment-nginx.md'), 'utf8');
    expect(guide).toContain(`\`\`\`nginx\n${await fs.readFile(NGINX_SITE_FILE, 'utf8')}\`\`\``);
  });

  it('answers /health/ready through the proxy once the instance is warm', async () => {
    let ready: Answer;
    do ready = await request(nginx.url, { method: 'GET', path: '/health/ready' });
    while (ready.status === 503 && ready.headers['retry-after'] && await new Promise((resolve) => setTimeout(resolve, 100, true)));
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready' });
  });

  it('passes a streamed chat answer on event by event, not all at the end', async () => {
    const chatbot = await tenant.call('POST', '/v1/chatbot', { name: 'Lighthouse desk' });
    expect(chatbot.status).toBe(201);
    const spread = (arrivals: number[]) => arrivals.at(-1)! - arrivals[0]!;
    // The deltas leave the provider over (DELTAS - 1) × DELTA_GAP_MS = 1750 ms.
    const proxied = await streamChat(nginx.url, chatbot.body.id);
    expect(proxied).toMatchObject({ status: 201, last: 'streamEnd' });
    expect(proxied.arrivals).toHaveLength(DELTAS);
    expect(spread(proxied.arrivals)).toBeGreaterThan(1200);

    // A bare `proxy_pass` (HTTP/1.0 to the service, buffering on) streams too: the service's X-Accel-Buffering: no turns buffering off.
    const bare = await streamChat(bareSite.url, chatbot.body.id);
    expect(bare.arrivals).toHaveLength(DELTAS);
    expect(spread(bare.arrivals)).toBeGreaterThan(1200);

    // The control: the bare site ignoring that header hands the whole answer over at the end.
    const buffered = await streamChat(deafSite.url, chatbot.body.id);
    expect(buffered.arrivals).toHaveLength(DELTAS);
    expect(spread(buffered.arrivals)).toBeLessThan(200);
  });

  it('lets TRUST_PROXY take the address nginx saw, never one the client claims', async () => {
    const chatbot = await tenant.call('POST', '/v1/chatbot', { name: 'Visitor desk' });
    // Password attempts are limited per visitor address (a PUBLIC chatbot answers 400, counted all the same).
    const attempt = (baseUrl: string, from: string, forwardedFor?: string) => request(baseUrl, {
      method: 'POST', path: `/v1/embed/${chatbot.body.id}/session`, from,
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify({ password: 'guess' }),
    }).then((answer) => answer.status);

    // Every request reaches the service from nginx's 127.0.0.1: the limit follows the client behind it.
    expect([await attempt(nginx.url, '127.0.0.2'), await attempt(nginx.url, '127.0.0.2'), await attempt(nginx.url, '127.0.0.2')]).toEqual([400, 400, 429]);
    expect(await attempt(nginx.url, '127.0.0.3')).toBe(400);
    // A client claiming another address is still counted as itself: a new claim is no new allowance…
    expect([
      await attempt(nginx.url, '127.0.0.4', '203.0.113.1'), await attempt(nginx.url, '127.0.0.4', '203.0.113.2'), await attempt(nginx.url, '127.0.0.4', '203.0.113.3'),
    ]).toEqual([400, 400, 429]);
    // …and no way to use up someone else's.
    expect(await attempt(nginx.url, '127.0.0.5', '127.0.0.2')).toBe(400);
    // Straight to the service, X-Forwarded-For is not trusted at all (it does not come from 127.0.0.1).
    expect(await attempt(service.service.url, '127.0.0.2', '198.51.100.7')).toBe(429);
  });

  it('takes a 100 MB upload through the proxy, and refuses one over the limit at the proxy', async () => {
    const pdf = makePdf(['A large brochure.']);
    const padded = Buffer.alloc(100 * 1024 * 1024, 0x20);
    pdf.copy(padded);
    const form = new FormData();
    form.append('file', new Blob([padded]), 'brochure.pdf');
    const uploaded = await fetch(`${nginx.url}/v1/resource/file`, { method: 'POST', headers: { 'x-api-key': tenant.apiKey }, body: form });
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toMatchObject({ type: 'PDF' });

    // Over client_max_body_size: nginx answers 413 from the headers alone.
    const tooLarge = await request(nginx.url, {
      method: 'POST', path: '/v1/resource/file',
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(MAX_UPLOAD_BYTES + 2 * 1024 * 1024) },
    });
    expect(tooLarge.status).toBe(413);
  }, 60_000);

  it('cuts a client whose upload stalls after client_body_timeout, before the service sees it', async () => {
    const socket = net.connect(impatientSite.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const started = performance.now();
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
    socket.write([
      'POST /v1/resource/file HTTP/1.1', 'Host: parley.test', `x-api-key: ${tenant.apiKey}`,
      'Content-Type: multipart/form-data; boundary=b', 'Content-Length: 50000000', '', '--b',
      'Content-Disposition: form-data; name="file"; filename="slow.pdf"', '', '%PDF-1.4',
    ].join('\r\n'));
    const elapsed = await closed;
    expect(elapsed).toBeGreaterThan(CLIENT_BODY_TIMEOUT_S * 1000 - 500);
    expect(elapsed).toBeLessThan(CLIENT_BODY_TIMEOUT_S * 1000 + 3000);
    // nginx notes 408 and closes without an answer; with request buffering on, nothing was passed on.
    expect(received).toBe('');
    expect(await impatientSite.accessLog()).toContainEqual(expect.stringMatching(/^408 [\d.]+ "POST \/v1\/resource\/file HTTP\/1\.1"$/));
  });
});
