import dns from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy.js';

/** A fetch refused because its target (or a redirect's, or a DNS answer) is not allowed. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

/** A fetch that failed: timeout, size cap, too many redirects, or a network error. */
export class FetchFailedError extends Error {
  override name = 'FetchFailedError';
}

/** A fetch whose body was larger than its cap (its first `maxBytes` bytes may have been read). */
export class BodyTooLargeError extends FetchFailedError {
  override name = 'BodyTooLargeError';
}

export interface SafeFetchOptions {
  /** Operator switch (CRAWL_ALLOW_PRIVATE_NETWORKS): reach private and loopback addresses too. */
  allowPrivateNetworks: boolean;
  /** Which resolved addresses may be reached; default: public ones only (address-policy.ts). */
  isAllowedAddress?: (address: string) => boolean;
  /** Whole-request deadline, redirects included. Default 15 s. */
  timeoutMs?: number;
  /** Bodies larger than this fail the fetch. Default 10 MB. */
  maxBytes?: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Default GET. A request with a body is sent once: redirects of it are not followed. */
  method?: 'GET' | 'POST';
  body?: string | Buffer;
  /** Keep the first `maxBytes` of a larger body instead of failing (the answer of a webhook receiver). */
  truncateBody?: boolean;
  signal?: AbortSignal;
  /**
   * Keep-alive agents to reuse connections (a crawl). A reused socket stays connected to the
   * address checked when it was opened, so the guard holds; a new one is checked as ever.
   */
  agents?: { http: http.Agent; https: https.Agent };
}

export interface SafeResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A DNS lookup that fails when any answer is a refused address; the connection then uses a checked one. */
function guardedLookup(allowed: (address: string) => boolean): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const refused = addresses.find((entry) => !allowed(entry.address));
      if (refused || addresses.length === 0) {
        return callback(new BlockedAddressError(`${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not a public address`));
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}

function assertTarget(url: URL, allowed: (address: string) => boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedAddressError(`${url.protocol} URLs are not fetched`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !allowed(host)) throw new BlockedAddressError(`${host} is not a public address`);
}

function requestOnce(url: URL, options: SafeFetchOptions, allowed: (address: string) => boolean, signal: AbortSignal, maxBytes: number) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const client = secure ? https : http;
    const agent = secure ? options.agents?.https : options.agents?.http;
    const req = client.request(url, {
      method: options.method ?? 'GET', signal, lookup: guardedLookup(allowed), ...(agent ? { agent } : {}),
      headers: { 'accept-encoding': 'identity', ...options.headers },
    }, (res) => {
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes && options.truncateBody) {
        resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
        return void req.destroy();
      }
      if (declared > maxBytes && !REDIRECTS.has(status)) {
        reject(new BodyTooLargeError(`${url.href} is larger than ${maxBytes} bytes`));
        // Not read at all: draining it would download what the cap refuses.
        return void req.destroy();
      }
      if (REDIRECTS.has(status)) {
        res.resume();
        return resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received <= maxBytes) return void chunks.push(chunk);
        if (options.truncateBody) {
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks) });
          return void req.destroy();
        }
        reject(new BodyTooLargeError(`${url.href} is larger than ${maxBytes} bytes`));
        // Destroyed without an error: the promise is already settled, and an error would be unhandled.
        req.destroy();
      });
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * GETs (or POSTs, for webhooks) a URL on a user's behalf (crawler, video host, webhooks) with the SSRF guard: only public
 * addresses, checked for literal hosts, for every DNS answer (the connection uses the checked
 * address, so a rebinding DNS cannot switch it) and again for each redirect; a deadline and a
 * body size cap on every fetch. Non-2xx statuses are returned, not thrown.
 * @throws BlockedAddressError, FetchFailedError
 */
export async function safeFetch(target: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const allowed = options.allowPrivateNetworks ? () => true : (options.isAllowedAddress ?? isPublicAddress);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  let url = new URL(target);
  for (let redirects = 0; ; redirects++) {
    assertTarget(url, allowed);
    let response;
    try {
      response = await requestOnce(url, options, allowed, signal, maxBytes);
    } catch (err) {
      if (err instanceof BlockedAddressError || err instanceof FetchFailedError) throw err;
      if (options.signal?.aborted) throw err;
      const reason = timeout.aborted ? 'timed out' : err instanceof Error ? err.message : String(err);
      throw new FetchFailedError(`fetching ${url.href} failed: ${reason}`);
    }
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || !location) return { url: url.href, ...response };
    if (redirects >= (options.maxRedirects ?? 5)) throw new FetchFailedError(`${target} redirects too many times`);
    url = new URL(location, url);
  }
}
