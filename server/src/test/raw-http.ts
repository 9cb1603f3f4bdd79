import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON when it is JSON, else undefined. */
  json: unknown;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given: no encoding or normalisation (unlike fetch and supertest). */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** The request is aborted and rejected after this long (a hang). */
  timeoutMs?: number;
}

/** One HTTP request over loopback with the path and bytes exactly as given. */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const length = request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) };
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname, port, method: request.method, path: request.path, headers: { ...length, ...request.headers }, agent: false,
      timeout: request.timeoutMs ?? 15_000,
    }, (res) => {
      // A live event stream (200, issue 35) stays open until the client leaves: it answered once its headers came.
      if (res.statusCode === 200 && /^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
        resolve({ status: 200, headers: res.headers, body: Buffer.alloc(0), json: undefined });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        let json: unknown;
        if (/json/.test(res.headers['content-type'] ?? '')) {
          try { json = JSON.parse(body.toString('utf8')); } catch { json = undefined; }
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${request.method} ${request.path} hung`)));
    req.on('error', reject);
    req.end(request.body);
  });
}
