import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../errors/http-error.js';
import { inSeries } from './in-series.js';
import { requestPath, segmentsOf } from './request-path.js';

/** The methods a route table registers, as Express's routers name them. */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
type Register = (path: string | readonly string[], ...handlers: RequestHandler[]) => RouteTable;

/** Where routes are added: an Express `Router` or a `RouteTable` (define-route.ts mounts on either). */
export type RouteSink = { [M in Method]: (path: string, ...handlers: RequestHandler[]) => unknown };

/** A route path by segment, as `/` splits it (the first segment is the empty one before the first `/`). */
export interface PathTemplate {
  /** Per segment: its literal text in lower case, or `undefined` for a parameter. */
  literals: (string | undefined)[];
  /** Per segment: the parameter's name, or `undefined` for literal text. */
  names: (string | undefined)[];
}

interface TableRoute extends PathTemplate {
  method: string;
  /** The route's handlers run in turn (in-series.ts). */
  run: RequestHandler;
}

/** A table of routes, registered like an Express router's and dispatched by `compileRoutes`. */
export interface RouteTable extends Record<Method, Register> {
  readonly routes: readonly TableRoute[];
}

const PARAM = /^:(\w+)$/;
const LITERAL = /^[^:*?(){}]*$/;

/** A path of literal segments and `:name` parameters, by segment; `undefined` for any other pattern. */
export function templateOf(path: string): PathTemplate | undefined {
  if (!path.startsWith('/')) return undefined;
  const segments = segmentsOf(path);
  const literals: (string | undefined)[] = [];
  const names: (string | undefined)[] = [];
  for (const segment of segments) {
    const param = PARAM.exec(segment)?.[1];
    if (param === undefined && !LITERAL.test(segment)) return undefined;
    literals.push(param === undefined ? segment.toLowerCase() : undefined);
    names.push(param);
  }
  return { literals, names };
}

function toRoute(method: Method, path: string, handlers: RequestHandler[]): TableRoute {
  const template = templateOf(path);
  if (template === undefined) throw new Error(`route path ${JSON.stringify(path)}: only literal segments and :name parameters, from /`);
  return { ...template, method: method.toUpperCase(), run: inSeries(...handlers) };
}

/**
 * Routes registered like an Express router's (`table.get(path, ...handlers)`) for paths of literal
 * segments and `:name` parameters: the shape of every contract route (define-route.ts).
 */
export function routeTable(): RouteTable {
  const routes: TableRoute[] = [];
  const table = { routes } as { routes: TableRoute[] } & Partial<Record<Method, Register>>;
  for (const method of METHODS) {
    table[method] = (path, ...handlers) => {
      for (const one of typeof path === 'string' ? [path] : path) routes.push(toRoute(method, one, handlers));
      return table as RouteTable;
    };
  }
  return table as RouteTable;
}

/**
 * Whether a path's segments (`segmentsOf`) match a template as an Express route would: the same
 * number, literal ones equal ignoring case, parameters not empty.
 */
export function matchesTemplate({ literals }: PathTemplate, segments: readonly string[]): boolean {
  if (segments.length !== literals.length) return false;
  for (let i = 1; i < literals.length; i++) {
    const literal = literals[i];
    const segment = segments[i]!;
    if (literal === undefined) {
      if (segment.length === 0) return false;
    } else if (segment !== literal && (segment.length !== literal.length || segment.toLowerCase() !== literal)) {
      return false;
    }
  }
  return true;
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new HttpError(400, [`path segment ${JSON.stringify(value)} is not valid percent-encoding`]);
  }
}

function paramsOf(route: TableRoute, segments: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  route.names.forEach((name, i) => {
    if (name !== undefined) params[name] = decodeParam(segments[i]!);
  });
  return params;
}

/** Express's automatic answer to OPTIONS on a path that has routes: `Allow` lists their methods. */
function sendAllow(res: Response, methods: Set<string>): void {
  if (methods.has('GET')) methods.add('HEAD');
  const allow = [...methods].sort().join(', ');
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allow);
}

/**
 * One request handler for the routes of several tables, tried in the order registered, with
 * Express's routing rules for these paths: literal segments compare case-insensitively, one
 * trailing slash is allowed, parameters are non-empty and percent-decoded into `req.params`, HEAD
 * runs a GET route, OPTIONS on a routed path answers with `Allow`, and a handler's `next()` goes on
 * to the next matching route (`next('route')` too) and then out of the table. A thrown error or
 * rejected promise reaches Express's error handlers. For the application's top level (request-path.ts).
 *
 * It replaces a router per feature: an Express router walks its layers, matching each with a
 * regular expression and saving and restoring the request's routing state for every router it
 * enters; a cached `GET /v1/chatbot/{id}` spent about a tenth of its throughput there. Here a request
 * looks only at routes of its method and number of segments.
 */
export function compileRoutes(...tables: RouteTable[]): RequestHandler {
  // By method, then by number of segments.
  const index = new Map<string, TableRoute[][]>();
  const all = tables.flatMap((table) => table.routes);
  for (const route of all) {
    const bySize = index.get(route.method) ?? [];
    (bySize[route.literals.length] ??= []).push(route);
    index.set(route.method, bySize);
  }
  // HEAD runs GET routes (no table registers HEAD routes of its own).
  if (index.has('GET')) index.set('HEAD', index.get('GET')!);

  return (req, res, next) => {
    const { segments } = requestPath(req);
    const candidates = index.get(req.method)?.[segments.length];
    if (candidates === undefined) return otherwise(req, res, next, segments);
    let at = 0;
    const tryNext = (err?: unknown): void => {
      if (err === 'router') return next();
      if (err !== undefined && err !== null && err !== 'route') return next(err);
      while (at < candidates.length) {
        const route = candidates[at++]!;
        if (!matchesTemplate(route, segments)) continue;
        try {
          req.params = paramsOf(route, segments);
        } catch (error) {
          return next(error);
        }
        route.run(req, res, tryNext);
        return;
      }
      otherwise(req, res, next, segments);
    };
    tryNext();
  };

  function otherwise(req: Request, res: Response, next: NextFunction, segments: string[]): void {
    if (req.method !== 'OPTIONS') return next();
    const methods = new Set(all.filter((route) => matchesTemplate(route, segments)).map((route) => route.method));
    if (methods.size === 0) return next();
    sendAllow(res, methods);
  }
}
