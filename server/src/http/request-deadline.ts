import type { Server } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { hasBody } from './request-body.js';

export interface RequestTimeouts {
  /** Time a request may take to arrive whole (headers and body). */
  requestMs: number;
  /** The same for file uploads: 1000 MB at 100 kB/s take almost 3 hours. */
  uploadMs: number;
}

/** Whether a body follows the headers (the request is not complete until it has arrived). */

/** The file upload routes: their bodies are large by design. */
const isUpload = (req: Request) => req.method === 'POST' && req.path === '/v1/resource/file';

/**
 * Node's own limit (`requestTimeout`, 300 s by default) is one for every route, so it is set to
 * the longest (uploads), and this middleware holds every other request to `requestMs`. A request
 * whose body has not arrived by its deadline gets a 408 (a client error, not a server error) and
 * its connection is closed.
 */
export function requestDeadline(timeouts: RequestTimeouts): RequestHandler {
  return (req, res, next) => {
    // A request without a body has arrived with its headers (Node's headersTimeout covers those).
    if (req.complete || !hasBody(req)) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (!res.headersSent) {
        res.status(408).set('Connection', 'close').json({ statusCode: 408, message: ['the request took too long to arrive'], error: 'Request Timeout' });
      }
      res.once('finish', () => req.destroy());
    }, isUpload(req) ? timeouts.uploadMs : timeouts.requestMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    res.once('close', clear);
    next();
  };
}

/** Node's server-wide timeouts: the longest request (an upload) and keep-alive behind a load balancer. */
export function applyServerTimeouts(server: Server, timeouts: RequestTimeouts): void {
  server.requestTimeout = Math.max(timeouts.requestMs, timeouts.uploadMs);
  // Longer than the usual load-balancer idle timeout (60 s), so the balancer, not Node, closes idle
  // keep-alive connections: otherwise a request can race a socket Node is closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}
