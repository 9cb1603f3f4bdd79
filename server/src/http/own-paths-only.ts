import type { Request, RequestHandler, Router } from 'express';

interface LayerLike { rawPath?: unknown; slash?: boolean; route?: unknown }

/** The request's path as the gates compare it (lower case, no trailing slash), worked out once per request: the gates sit at the application's top level, where every one sees the same path. */
const comparablePaths = new WeakMap<Request, string>();
function comparablePath(req: Request): string {
  let path = comparablePaths.get(req);
  if (path === undefined) {
    path = req.path.toLowerCase();
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    comparablePaths.set(req, path);
  }
  return path;
}

const PATTERN = /[:*?(){}]/;

/** The literal start of a route path, up to its first parameter or pattern (`/v1/chatbot/:id` → `/v1/chatbot`). */
function staticPrefix(path: string): string {
  const literal: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (PATTERN.test(segment)) break;
    literal.push(segment);
  }
  return `/${literal.join('/')}`;
}

/**
 * Hands a feature's router only the requests its layers can match, and passes every other request
 * straight on. An Express router tries each of its routes in turn; with a dozen feature routers
 * every API call was matched against every route of every feature before its own (a GET of a
 * chatbot ran 60 matchers), which cost a quarter of the throughput of a trivial handler.
 * A route of literal segments is matched exactly, any other layer by its literal prefix,
 * following Express's defaults (case-insensitive, a trailing slash allowed). A router with a layer
 * that may match any path is returned as it is. The router's layers are read once, here: wrap a
 * router after its routes are added.
 */
export function ownPathsOnly(router: Router): RequestHandler {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  for (const layer of router.stack as LayerLike[]) {
    const paths = [layer.rawPath].flat(Infinity);
    if (layer.slash || paths.some((path) => typeof path !== 'string')) return router;
    for (const path of paths as string[]) {
      const literal = layer.route !== undefined && !PATTERN.test(path);
      const key = (literal ? path : staticPrefix(path)).toLowerCase().replace(/(.)\/$/, '$1');
      if (!literal && key === '/') return router;
      (literal ? exact : prefixes).add(key);
    }
  }
  const under = [...prefixes];
  return (req, res, next) => {
    const path = comparablePath(req);
    if (exact.has(path) || under.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return router(req, res, next);
    next();
  };
}
