import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, as it arrived. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** What verifying it with the `standardwebhooks` package gave: the parsed body, or the error. */
  verified: { ok: true; payload: { type: string; timestamp: string; data: Record<string, unknown> } } | { ok: false; error: string };
  /** The status answered. */
  status: number;
}

/**
 * A webhook receiver on loopback that verifies every request with the `standardwebhooks` package
 * (the reference implementation), answering the statuses of `plan` in turn (then 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses to answer next, in order; 200 once empty. */
  plan: number[] = [];
  /** The secret to verify with (set once the endpoint is created). */
  secret = '';
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      const status = this.plan.shift() ?? 200;
      this.received.push({ headers, body, verified: this.verify(body, headers), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'busy');
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  });
  private waiters: (() => void)[] = [];

  verify(body: string, headers: Record<string, string>): ReceivedWebhook['verified'] {
    try {
      return { ok: true, payload: new Webhook(this.secret).verify(body, headers) as never };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => this.server.once('listening', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests arrived (or fails after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${this.received.length}`);
      await new Promise<void>((resolve) => { this.waiters.push(resolve); setTimeout(resolve, 200); });
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
