import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLogging } from './request-logging.js';

interface Line { level: number; msg: string; reqId: string; req: { method: string; url: string }; res: { statusCode: number }; responseTime: number; aborted?: true }

function app() {
  const lines: Line[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => { lines.push(JSON.parse(line) as Line); } });
  const server = express();
  server.use(requestLogging(logger));
  server.get('/ok', (_req, res) => { res.json({ ok: true }); });
  server.get('/slow', () => { /* never answers: the client gives up */ });
  server.use((_req, res) => { res.status(404).end(); });
  return { server, lines };
}

const servers: http.Server[] = [];
afterEach(() => { for (const server of servers.splice(0)) server.close(); });

describe('requestLogging', () => {
  it('logs each request once with its id, method, URL, status and time, and echoes the id', async () => {
    const { server, lines } = app();
    const request = supertest(server);
    const ok = await request.get('/ok?x=1').set('x-request-id', 'abc-123');
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const missing = await request.get('/nowhere');
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[0]).toMatchObject({ level: 20, msg: 'request completed', reqId: 'abc-123', req: { method: 'GET', url: '/ok?x=1' }, res: { statusCode: 200 } });
    expect(lines[0]!.responseTime).toBeGreaterThanOrEqual(0);
    expect(lines[0]!.aborted).toBeUndefined();
    expect(lines[1]).toMatchObject({ level: 30, msg: 'request completed', reqId: missing.headers['x-request-id'], res: { statusCode: 404 } });
  });

  it('gives a request id that is not a plain token a new one', async () => {
    const { server } = app();
    const res = await supertest(server).get('/ok').set('x-request-id', 'bad id with spaces');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a request whose client went away as aborted', async () => {
    const { server, lines } = app();
    const listening = server.listen(0, '127.0.0.1');
    servers.push(listening);
    await new Promise<void>((resolve) => listening.once('listening', resolve));
    const { port } = listening.address() as AddressInfo;
    const req = http.get({ port, host: '127.0.0.1', path: '/slow' });
    req.on('error', () => { /* the abort below */ });
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.destroy();
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request aborted', aborted: true, req: { url: '/slow' } });
  });
});
