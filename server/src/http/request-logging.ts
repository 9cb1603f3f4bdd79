import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's id: the caller's `x-request-id`, or a new UUID. Echoed in the response. */
    id: string;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** When the request arrived (`performance.now()`). */
const STARTED = Symbol('started');
type Timed = Request & { [STARTED]: number };

interface RequestLine {
  reqId: string;
  req: { method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
  aborted?: true;
}

/**
 * A request line's level. Requests that went well are `debug`: at the default LOG_LEVEL (info) the
 * terminal keeps the start banner and its one-time key in view instead of a line per request
 * (LOG_LEVEL=debug shows them all). Refusals (4xx) and aborts are `info`, a busy service (503)
 * `warn`, a failure `error`.
 */
function levelOf(statusCode: number, finished: boolean): 'debug' | 'info' | 'warn' | 'error' {
  if (statusCode === 503) return 'warn';
  if (statusCode >= 500) return 'error';
  return statusCode >= 400 || !finished ? 'info' : 'debug';
}

/**
 * Logs each request once when its connection is done, with a request id echoed back in
 * `x-request-id`; other lines about the request carry the same `reqId`. No per-request child
 * logger: pino-http made one (or two) for every request, which cost 16% of the throughput of a
 * cached `GET /v1/chatbot/{id}` (server/bench/chatbot-get.bench.ts), and a lazy `req.log` getter
 * defined on each request cost a property definition and a closure per request for the one error
 * line that used it (the error handler now logs the request id itself).
 */
export function requestLogging(logger: Logger): RequestHandler {
  // A request line names no header, so it skips the redaction every other line passes through
  // (a third of the cost of writing the line).
  const lines = logger.child({}, { redact: [] });
  // One listener for every response, called with the response as `this`: no closure per request,
  // and no removal (the response is dropped once closed).
  function logLine(this: Response): void {
    const req = this.req;
    const finished = this.writableFinished;
    const line: RequestLine = {
      reqId: req.id, req: { method: req.method, url: req.originalUrl }, res: { statusCode: this.statusCode },
      responseTime: Math.round(performance.now() - (req as Timed)[STARTED]),
    };
    if (!finished) line.aborted = true;
    lines[levelOf(this.statusCode, finished)](line, finished ? 'request completed' : 'request aborted');
  }
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    (req as Timed)[STARTED] = performance.now();
    req.id = id;
    res.setHeader('x-request-id', id);
    res.on('close', logLine);
    next();
  };
}
