import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream } from './event-stream.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Serves one route that runs `handler` after `delayMs` (time spent preparing the answer). */
async function serve(handler: (stream: EventStream) => Promise<void>, delayMs = 0): Promise<{ url: string; opened: Promise<EventStream> }> {
  let resolveOpened: (stream: EventStream) => void = () => {};
  const opened = new Promise<EventStream>((resolve) => { resolveOpened = resolve; });
  const app = express();
  app.post('/stream', async (_req, res) => {
    await sleep(delayMs);
    const stream = openEventStream(res, { heartbeatMs: 20 });
    resolveOpened(stream);
    await handler(stream);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server!.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`, opened };
}

describe('openEventStream', () => {
  it('answers 201 text/event-stream without proxy buffering, with heartbeat comments while idle', async () => {
    const { url } = await serve(async (stream) => {
      stream.send({ type: 'partialResponse', data: { text: 'a' } });
      await sleep(90);
      stream.send({ type: 'streamEnd' });
      stream.close();
    });
    const response = await fetch(url, { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const body = await response.text();
    expect(body.startsWith('data: {"type":"partialResponse","data":{"text":"a"}}\n\n')).toBe(true);
    expect(body.endsWith('data: {"type":"streamEnd"}\n\n')).toBe(true);
    expect(body).toContain(': heartbeat\n\n');
  });

  it('aborts its signal when the client goes away mid-stream, and not after a normal end', async () => {
    const { url, opened } = await serve(async (stream) => { stream.send({ type: 'partialResponse', data: { text: 'a' } }); });
    const controller = new AbortController();
    const response = await fetch(url, { method: 'POST', signal: controller.signal });
    const stream = await opened;
    expect(stream.signal.aborted).toBe(false);
    controller.abort();
    await response.body?.cancel().catch(() => {});
    for (let i = 0; i < 100 && !stream.signal.aborted; i++) await sleep(5);
    expect(stream.signal.aborted).toBe(true);

    const finished = await serve(async (s) => { s.send({ type: 'streamEnd' }); s.close(); });
    await (await fetch(finished.url, { method: 'POST' })).text();
    await sleep(20);
    expect((await finished.opened).signal.aborted).toBe(false);
  });

  it('starts aborted when the client left while the answer was being prepared', async () => {
    const { url, opened } = await serve(async () => {}, 100);
    const request = http.request(url, { method: 'POST' });
    request.on('error', () => {});
    request.end();
    await sleep(30);
    request.destroy();
    expect((await opened).signal.aborted).toBe(true);
  });
});
