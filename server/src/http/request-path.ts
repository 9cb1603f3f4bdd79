import type { Request } from 'express';

/** A request's path as the application's top-level routing compares it. */
export interface RequestPath {
  /** Lower case, without a trailing slash: for exact and prefix comparisons. */
  comparable: string;
  /** The path split at `/` as given (case kept, one trailing slash dropped): for route templates. */
  segments: string[];
}

const REQUEST_PATH = Symbol('requestPath');
type WithRequestPath = Request & { [REQUEST_PATH]?: RequestPath };

/** A path's segments, without one trailing slash (Express's routers allow one). */
export function segmentsOf(path: string): string[] {
  const segments = path.split('/');
  if (segments.length > 2 && segments.at(-1) === '') segments.pop();
  return segments;
}

/**
 * The request's path, worked out once per request and kept on it (a WeakMap's lookups cost more).
 * For the application's top level only, where everything sees the same URL (a mounted router sees
 * its own part of it).
 */
export function requestPath(req: WithRequestPath): RequestPath {
  let known = req[REQUEST_PATH];
  if (known === undefined) {
    const path = req.path;
    let comparable = path.toLowerCase();
    if (comparable.length > 1 && comparable.endsWith('/')) comparable = comparable.slice(0, -1);
    known = { comparable, segments: segmentsOf(path) };
    req[REQUEST_PATH] = known;
  }
  return known;
}
