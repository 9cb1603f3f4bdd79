import express, { type Request, type RequestHandler } from 'express';

/** Whether a request carries a body (chunked, or a non-zero Content-Length). */
export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Parses JSON bodies: up to `limit`, or up to `largeLimit` under `largePath` (text resources carry
 * up to 5,000,000 characters, decisions.md § Resources and processing). One layer of the
 * application, and a request without a body passes straight on: most calls are GETs.
 */
export function jsonBodies(options: { limit: string; largePath: string; largeLimit: string }): RequestHandler {
  const parse = express.json({ limit: options.limit });
  const parseLarge = express.json({ limit: options.largeLimit });
  const largePath = options.largePath.toLowerCase();
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    const path = req.path.toLowerCase();
    const large = path === largePath || path.startsWith(`${largePath}/`);
    (large ? parseLarge : parse)(req, res, next);
  };
}
