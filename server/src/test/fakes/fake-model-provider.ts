import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicWire, googleWire, openaiWire, type WireFormat } from './provider-wire-formats.js';

export type ProviderFamily = 'openai' | 'anthropic' | 'google';

/** What the fake answers to the next requests. */
export interface FakeReply {
  deltas: string[];
  /** Pause before each delta. */
  intervalMs?: number;
  /** Send the provider's error event after this many deltas, then end the response. */
  failAfter?: number;
  /** After the deltas, keep the response open until the client goes away. */
  hang?: boolean;
}

export interface RecordedRequest {
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

const WIRES: Record<ProviderFamily, WireFormat> = { openai: openaiWire, anthropic: anthropicWire, google: googleWire };
const BASE_PATHS: Record<ProviderFamily, string> = { openai: '/v1', anthropic: '/v1', google: '/v1beta' };

/**
 * A loopback model provider speaking one family's real streaming wire format, for tests and
 * benchmarks. Records every request and counts responses the client abandoned mid-stream.
 */
export class FakeModelProvider {
  reply: FakeReply = { deltas: ['Hello', ' from', ' the', ' fake.'] };
  /** When set, the only models served; others are refused as a local server refuses a model it has not pulled (404). */
  knownModels?: readonly string[];
  readonly requests: RecordedRequest[] = [];
  /** Responses whose connection the client closed before the fake finished writing. */
  clientAborts = 0;
  private abortWaiters: (() => void)[] = [];

  private constructor(readonly family: ProviderFamily, private readonly server: http.Server, readonly url: string) {}

  /** Starts a fake on an ephemeral loopback port. */
  static async start(family: ProviderFamily, reply?: FakeReply): Promise<FakeModelProvider> {
    const server = http.createServer();
    server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const fake = new FakeModelProvider(family, server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (reply) fake.reply = reply;
    server.on('request', (req, res) => { void fake.handle(req, res); });
    return fake;
  }

  /** The base URL to configure (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GOOGLE_BASE_URL`). */
  get baseUrl(): string {
    return `${this.url}${BASE_PATHS[this.family]}`;
  }

  /** Resolves once a client has abandoned a response (at once if one already did). */
  waitForClientAbort(): Promise<void> {
    if (this.clientAborts > 0) return Promise.resolve();
    return new Promise((resolve) => this.abortWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path = '', query = ''] = (req.url ?? '').split('?');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    this.requests.push({ path, query, headers: req.headers, body });
    const wire = WIRES[this.family];
    if (req.method !== 'POST' || !wire.matches(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    const model = typeof body.model === 'string' ? body.model : path.split('/').at(-1)!.split(':')[0]!;
    if (this.knownModels && !this.knownModels.includes(model)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `model "${model}" not found, try pulling it first`, type: 'not_found_error' } }));
      return;
    }
    let finished = false;
    res.on('close', () => {
      if (finished) return;
      this.clientAborts++;
      for (const resolve of this.abortWaiters.splice(0)) resolve();
    });
    await this.stream(res, wire, model, body);
    if (!this.reply.hang && !res.destroyed) {
      finished = true;
      res.end();
    }
  }

  private async stream(res: ServerResponse, wire: WireFormat, model: string, body: Record<string, unknown>): Promise<void> {
    const { deltas, intervalMs = 0, failAfter } = this.reply;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const write = (frames: string[]) => { for (const frame of frames) if (!res.destroyed) res.write(frame); };
    write(wire.start(model));
    for (const [index, text] of deltas.entries()) {
      if (failAfter === index) return write(wire.error());
      if (intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      if (res.destroyed) return;
      write(wire.delta(text, model));
    }
    if (failAfter !== undefined && failAfter >= deltas.length) return write(wire.error());
    if (!this.reply.hang) write(wire.finish(model, body));
  }
}
