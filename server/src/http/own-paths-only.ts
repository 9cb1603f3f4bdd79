import type { RequestHandler, Router } from 'express';
import { requestPath, type RequestPath } from './request-path.js';
import { matchesTemplate, templateOf, type PathTemplate } from './route-table.js';

interface LayerLike { rawPath?: unknown; slash?: boolean; route?: unknown }

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

/** Whether a request's comparable path is one a router's layers can match; `undefined` when any path may match. */
function matcherOf(router: Router): ((path: RequestPath) => boolean) | undefined {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  const templates: PathTemplate[] = [];
  for (const layer of router.stack as LayerLike[]) {
    const paths = [layer.rawPath].flat(Infinity);
    if (layer.slash || paths.some((path) => typeof path !== 'string')) return undefined;
    for (const path of paths as string[]) {
      const literal = layer.route !== undefined && !PATTERN.test(path);
      // A route of literal segments and parameters matches paths of its own number of segments.
      const template = layer.route !== undefined && !literal ? templateOf(path) : undefined;
      if (template !== undefined) {
        templates.push(template);
        continue;
      }
      const key = (literal ? path : staticPrefix(path)).toLowerCase().replace(/(.)\/$/, '$1');
      if (!literal && key === '/') return undefined;
      (literal ? exact : prefixes).add(key);
    }
  }
  const under = [...prefixes].map((prefix) => ({ prefix, below: `${prefix}/` }));
  return ({ comparable, segments }) => exact.has(comparable)
    || under.some(({ prefix, below }) => comparable === prefix || comparable.startsWith(below))
    || templates.some((template) => matchesTemplate(template, segments));
}

/**
 * Hands each feature's router only the requests its layers can match, in the order given, and
 * passes every other request straight on. An Express router tries each of its routes in turn; with
 * a dozen feature routers every API call was matched against every route of every feature before
 * its own (a GET of a chatbot ran 60 matchers), which cost a quarter of the throughput of a
 * trivial handler. The routers share one layer of the application, so a request skips the routers
 * that are not its own without a step of Express's chain for each.
 * A route of literal segments is matched exactly, a route of literal segments and parameters by
 * its segments, any other layer by its literal prefix,
 * following Express's defaults (case-insensitive, a trailing slash allowed). A router with a layer
 * that may match any path sees every request. The routers' layers are read once, here: wrap
 * routers after their routes are added.
 */
export function ownPathsOnly(...routers: Router[]): RequestHandler {
  if (routers.length === 1 && matcherOf(routers[0]!) === undefined) return routers[0]!;
  const gates = routers.map((router) => ({ router, owns: matcherOf(router) }));
  return (req, res, next) => {
    const path = requestPath(req);
    let index = 0;
    const tryNext = (err?: unknown): void => {
      if (err) return next(err);
      while (index < gates.length) {
        const { router, owns } = gates[index++]!;
        if (owns === undefined || owns(path)) {
          router(req, res, tryNext);
          return;
        }
      }
      next();
    };
    tryNext();
  };
}

/**
 * Runs `handler` for requests at `prefix` or under it (case-insensitive, as Express mounts a path)
 * and passes every other request on: `app.use(prefix, handler)` without the mount's rewriting of
 * the request's URL and base URL for the handler and back.
 */
export function underPath(prefix: string, handler: RequestHandler): RequestHandler {
  const at = prefix.toLowerCase();
  const below = `${at}/`;
  return (req, res, next) => {
    const path = requestPath(req).comparable;
    return path === at || path.startsWith(below) ? handler(req, res, next) : next();
  };
}
