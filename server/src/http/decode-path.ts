import type { RequestHandler } from 'express';
import { formatIssues, type RouteContract } from '@parley/shared';
import { badRequest, HttpError } from '../errors/http-error.js';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** The parameter names of a route template by segment index (`/v1/chatbot/{id}` → [, , , 'id']). */
function templateOf(route: RouteContract): (string | { param: string })[] {
  return route.path.split('/').map((segment) => {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    return param ? { param } : segment;
  });
}

/**
 * The front door for paths: every segment must be valid percent-encoding before any router decodes
 * it (Express would throw a URIError, a 500). A segment that cannot be decoded is the route's own
 * 400 for that parameter, found from the route table; on any other path, a 400 naming the segment.
 */
export function decodePathOnce(routes: readonly RouteContract[]): RequestHandler {
  const templates = routes.map((route) => ({ route, template: templateOf(route) }));
  return (req, _res, next) => {
    // Nothing is percent-encoded: nothing can fail to decode.
    if (!req.url.includes('%')) return next();
    const segments = req.path.split('/');
    const broken = segments.findIndex((segment) => !decodes(segment));
    if (broken === -1) return next();
    for (const { route, template } of templates) {
      if (template.length !== segments.length || !route.params) continue;
      const matches = template.every((part, index) => typeof part !== 'string' || part === segments[index]);
      const brokenPart = template[broken];
      if (!matches || typeof brokenPart === 'string' || brokenPart === undefined) continue;
      const params = Object.fromEntries(template.flatMap((part, index) => (typeof part === 'string' ? [] : [[part.param, segments[index]]])));
      const result = route.params.safeParse(params);
      if (!result.success) throw new HttpError(400, formatIssues(result.error.issues, 'path'));
    }
    throw badRequest(`path segment ${JSON.stringify(segments[broken])} is not valid percent-encoding`);
  };
}
