import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProviderClient, providerFetch } from './provider-fetch.js';

interface Seen { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }

let server: http.Server | undefined;

/** A loopback server whose handler gets what was sent; resolves its base URL. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void): Promise<string> {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => handler(req, res, { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(parts).toString('utf8') }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('providerFetch', () => {
  it('sends the method, headers and body, and answers with the status, headers and body', async () => {
    let seen: Seen | undefined;
    const url = await serve((_req, res, s) => {
      seen = s;
      res.writeHead(429, { 'content-type': 'application/json', 'x-request-id': 'r1' }).end('{"error":{"message":"slow down"}}');
    });
    const response = await providerFetch(`${url}/v1/chat/completions?x=1`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-1' }, body: '{"stream":true}',
    });
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions?x=1', body: '{"stream":true}' });
    expect(seen!.headers).toMatchObject({ authorization: 'Bearer sk-1', 'content-type': 'application/json' });
    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect(await response.json()).toEqual({ error: { message: 'slow down' } });
  });

  it('hands over each part of a streamed body as it arrives', async () => {
    let finish: (() => void) | undefined;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await providerFetch(url, { method: 'POST', body: '{}' });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('data: one\n\n');
    finish!();
    expect((await reader.read()).value).toBe('data: two\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('fails with the signal\'s reason when aborted before the answer', async () => {
    const url = await serve(() => { /* never answers */ });
    const controller = new AbortController();
    const pending = providerFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException('gone', 'AbortError')), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses at once with an already aborted signal', async () => {
    const url = await serve((_req, res) => res.end('late'));
    await expect(providerFetch(url, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('closes the connection and fails the body when aborted mid-stream', async () => {
    let closed: Promise<void> | undefined;
    const url = await serve((_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: one\n\n');
    });
    const controller = new AbortController();
    const response = await providerFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toBeTruthy();
    await closed;
  });

  it('fails the body when the provider drops the connection mid-answer', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: one\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const reader = (await providerFetch(url, { method: 'POST', body: '{}' })).body!.getReader();
    await reader.read();
    await expect(reader.read()).rejects.toBeTruthy();
  });

  it('answers a bodiless status with no body', async () => {
    const url = await serve((_req, res) => res.writeHead(204).end());
    const response = await providerFetch(url, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('fails when nobody listens', async () => {
    const url = await serve((_req, res) => res.end());
    server!.close();
    server = undefined;
    await expect(providerFetch(url, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('leaves a body it does not stream itself (a form) to the global fetch', async () => {
    let seen: Seen | undefined;
    const url = await serve((_req, res, s) => { seen = s; res.end('ok'); });
    const form = new FormData();
    form.append('file', new Blob(['abc']), 'a.txt');
    const response = await providerFetch(url, { method: 'POST', body: form });
    expect(await response.text()).toBe('ok');
    expect(seen!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen!.body).toContain('abc');
  });

  it('speaks HTTPS to a provider whose certificate it trusts, and refuses one it does not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    const cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    const tlsServer = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: secure\n\n'));
    });
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/v1/chat/completions`;
    try {
      const response = await createProviderClient({ ca: cert }).fetch(url, { method: 'POST', body: '{}' });
      expect(await response.text()).toBe('data: secure\n\n');
      await expect(providerFetch(url, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    } finally {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });

  it('closes a keep-alive connection left unused, and keeps one whose answer pauses', async () => {
    const closed: Promise<void>[] = [];
    const url = await serve((req, res) => {
      closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 150);
    });
    const quick = createProviderClient({ freeSocketMs: 50 }).fetch;
    // A pause three times the keep-alive time inside an answer does not cut it.
    expect(await (await quick(url, { method: 'POST', body: '{}' })).text()).toBe('data: one\n\ndata: two\n\n');
    // Once free, the connection is closed by this side after 50 ms.
    await closed[0];
    expect(closed).toHaveLength(1);
  });

  it('gives up on a connection that does not open within the connect timeout', async () => {
    // A listener that never accepts, with its queue full: further connection attempts hang.
    const python = spawn('python3', ['-c', "import socket,time\ns=socket.socket();s.bind(('127.0.0.1',0));s.listen(0);print(s.getsockname()[1],flush=True);time.sleep(60)"]);
    try {
      const port = await new Promise<number>((resolve) => python.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim()))));
      const filler = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => filler.once('connect', resolve));
      await expect(createProviderClient({ connectMs: 200 }).fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body: '{}' }))
        .rejects.toMatchObject({ code: 'ETIMEDOUT' });
      filler.destroy();
    } finally {
      python.kill();
    }
  });
});
