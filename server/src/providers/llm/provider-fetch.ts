import http from 'node:http';
import https from 'node:https';

/** Longest silence on a provider connection before the call fails (undici fetch's own default). */
const IDLE_TIMEOUT_MS = 300_000;
/** Longest wait for a provider's connection to open (undici fetch's own default). */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * How long an unused keep-alive connection is kept (undici's default); Node's agent keeps it less
 * when the server's `Keep-Alive: timeout` hint, less a second, is shorter. A provider closes idle
 * connections after a while; reusing one it has just closed would fail the visitor's answer.
 */
const FREE_SOCKET_TIMEOUT_MS = 4_000;

/** Statuses whose responses carry no body (a `Response` with a body refuses them). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function outgoingHeaders(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => { out[name] = value; });
  return out;
}

/** A Node response as a web byte stream, paused while its reader is behind. */
function toWebStream(res: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      res.on('data', (chunk: Buffer) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.once('end', () => controller.close());
      res.once('error', (err) => controller.error(err));
      res.once('close', () => { if (!res.complete) controller.error(new Error('the provider closed the connection mid-response')); });
    },
    pull() { res.resume(); },
    cancel() { res.destroy(); },
  });
}

/** What {@link ProviderClient.request} sends. */
export interface ProviderRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** The provider connections of a process: keep-alive agents, a connect timeout and an idle timeout per request. */
export interface ProviderClient {
  /**
   * Sends one request and resolves its response as soon as its head arrives; the body streams
   * from the returned message. Aborting `signal` destroys the request with the signal's reason.
   */
  request(url: URL, init: ProviderRequestInit): Promise<http.IncomingMessage>;
  /**
   * The `fetch` the AI SDK's providers are given: the same request and response over
   * {@link ProviderClient.request} instead of undici's fetch. Under a burst of 1,000 streamed
   * answers, undici's fetch and its response body stream were a fifth of the service's CPU
   * (issue 12). It covers what the providers send (a JSON or byte body, headers, an abort
   * signal); any other body goes to the global fetch. Redirects are not followed: provider APIs
   * answer in place.
   */
  fetch: typeof fetch;
}

/**
 * Provider connections over node:http(s). `options` replace the trusted certificates, the
 * keep-alive time and the connect timeout (tests).
 */
export function createProviderClient(options: { ca?: string; freeSocketMs?: number; connectMs?: number } = {}): ProviderClient {
  const { ca, freeSocketMs = FREE_SOCKET_TIMEOUT_MS, connectMs = CONNECT_TIMEOUT_MS } = options;
  // The agents' timeout applies to free sockets only: each request sets its own idle timeout below.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: freeSocketMs }),
    'https:': new https.Agent({ keepAlive: true, timeout: freeSocketMs, ...(ca ? { ca } : {}) }),
  };
  const request = (url: URL, init: ProviderRequestInit): Promise<http.IncomingMessage> => {
    const agent = agents[url.protocol as keyof typeof agents];
    if (!agent) return Promise.reject(new Error(`a provider URL must be http or https, not ${url.protocol}`));
    const { signal } = init;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(url, { method: init.method, headers: init.headers, agent }, resolve);
      const onAbort = () => req.destroy(abortError(signal!) as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('close', () => signal?.removeEventListener('abort', onAbort));
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`the provider sent nothing for ${IDLE_TIMEOUT_MS / 1000} s`)));
      // A provider address that swallows the connection attempt fails the call after connectMs, not the system's minutes.
      req.once('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(() => req.destroy(Object.assign(new Error(`could not connect to the provider within ${connectMs} ms`), { code: 'ETIMEDOUT' })), connectMs);
        socket.once('connect', () => clearTimeout(timer));
        req.once('close', () => clearTimeout(timer));
      });
      req.once('error', reject);
      req.end(init.body);
    });
  };
  const providerFetchOf: typeof fetch = async (input, init = {}) => {
    const body = init.body ?? null;
    if (input instanceof Request || (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))) return fetch(input, init);
    const url = new URL(input instanceof URL ? input.href : String(input));
    if (!(url.protocol in agents)) return fetch(input, init);
    const res = await request(url, { method: init.method ?? 'GET', headers: outgoingHeaders(init.headers), ...(body !== null ? { body } : {}), ...(init.signal ? { signal: init.signal } : {}) });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const status = res.statusCode ?? 502;
    const hasBody = !NULL_BODY_STATUSES.has(status) && init.method !== 'HEAD';
    if (!hasBody) res.resume();
    return new Response(hasBody ? toWebStream(res) : null, { status, statusText: res.statusMessage, headers });
  };
  return { request, fetch: providerFetchOf };
}

/** The provider connections of this process. */
export const providerClient = createProviderClient();

/** The providers' fetch of this process ({@link ProviderClient.fetch}). */
export const providerFetch = providerClient.fetch;
