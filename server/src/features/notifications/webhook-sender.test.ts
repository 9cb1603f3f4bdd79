import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSettings } from '../../config.js';
import { newWebhookSecret, retryDelay, sendWebhook, signatureHeader } from './webhook-sender.js';

const SETTINGS: WebhookSettings = { allowPrivateNetworks: true, timeoutMs: 300, retryBaseMs: 1000, retryMaxMs: 60_000, retryForMs: 86_400_000, maxResponseBytes: 1024 };

let url: string;
let answer: (res: http.ServerResponse) => void = (res) => res.end();
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => answer(res)); });
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => { server.closeAllConnections(); server.close(); });

const message = { id: 'msg_1', body: '{"type":"lead.created"}' };
const send = (settings = SETTINGS) => sendWebhook(settings, { url, secrets: [newWebhookSecret()] }, message);

describe('sendWebhook', () => {
  it('classifies answers: 2xx delivered; 408, 429 and 5xx retried; other 4xx and redirects final', async () => {
    const cases: [number, string][] = [[200, 'delivered'], [204, 'delivered'], [408, 'retry'], [429, 'retry'], [500, 'retry'], [503, 'retry'],
      [400, 'final'], [404, 'final'], [410, 'final'], [301, 'final']];
    for (const [status, kind] of cases) {
      answer = (res) => res.writeHead(status, status === 301 ? { location: 'http://169.254.169.254/' } : {}).end();
      expect((await send()).kind, String(status)).toBe(kind);
    }
  });

  it('retries a timeout, and reads at most the cap of a large answer without failing', async () => {
    answer = () => {};
    expect(await send()).toMatchObject({ kind: 'retry', error: expect.stringContaining('timed out') });
    answer = (res) => res.writeHead(200).end('x'.repeat(100_000));
    expect(await send()).toEqual({ kind: 'delivered', status: 200 });
  });

  it('refuses loopback unless private networks are allowed (final)', async () => {
    answer = (res) => res.end();
    expect(await send({ ...SETTINGS, allowPrivateNetworks: false })).toMatchObject({ kind: 'final', error: expect.stringContaining('not a public address') });
  });
});

describe('signatures and backoff', () => {
  it('signs once per live secret; each verifies with the standardwebhooks package', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date();
    const header = signatureHeader([a, b], 'msg_2', at, message.body);
    expect(header.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': header };
    for (const secret of [a, b]) expect(new Webhook(secret).verify(message.body, headers)).toEqual({ type: 'lead.created' });
    expect(() => new Webhook(newWebhookSecret()).verify(message.body, headers)).toThrow();
  });

  it('doubles the delay per attempt up to the ceiling, jittered within its upper half', () => {
    expect(retryDelay(SETTINGS, 1, () => 0)).toBe(500);
    expect(retryDelay(SETTINGS, 1, () => 1)).toBe(1000);
    expect(retryDelay(SETTINGS, 4, () => 1)).toBe(8000);
    expect(retryDelay(SETTINGS, 30, () => 1)).toBe(60_000);
    expect(retryDelay(SETTINGS, 30, () => 0)).toBe(30_000);
  });
});
