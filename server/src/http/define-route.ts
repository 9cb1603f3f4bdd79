import type { Request, Response } from 'express';
import { rolesOf, successStatus, type RouteContract } from '@parley/shared';
import type { z } from 'zod';
import { badRequest, forbidden } from '../errors/http-error.js';
import { parseRequestPart } from './parse-request.js';
import { hasBody } from './request-body.js';
import type { RouteSink } from './route-table.js';
import '../features/audit/audit-trail.js';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a handler receives: the route's params, query and body, parsed by its shared schemas. */
export interface RouteInput<C extends RouteContract> {
  params: Infer<C['params']>;
  query: Infer<C['query']>;
  body: C['bodyType'] extends 'multipart' ? undefined : Infer<C['body']>;
  req: Request;
  res: Response;
}

/** Converts OpenAPI's `/x/{id}` into Express's `/x/:id`. */
export function toExpressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The one place roles are enforced: a member signed in to the console may call an `apiKey` route
 * only when the route's contract lists its role (`roles`); API keys, and sessions made with one,
 * have full access. Checked before anything of the request is read.
 */
function refuseRole(contract: RouteContract, req: Request): void {
  const member = req.auth?.member;
  if (contract.security !== 'apiKey' || member === undefined) return;
  if (!rolesOf(contract).includes(member.role)) {
    throw forbidden(`your role (${member.role}) may not do this: ${contract.operationId} is for ${rolesOf(contract).join(', ')}`);
  }
}

/**
 * Mounts a contract route: refuses roles it does not list (403), validates params, then query, then body with the shared schemas
 * (400 on failure), calls the handler and sends its result with the contract's success status.
 * A handler that writes the response itself (streams, files) returns nothing.
 */
export function mountRoute<C extends RouteContract>(
  router: RouteSink,
  contract: C,
  handler: (input: RouteInput<C>) => Promise<unknown> | unknown,
): void {
  const status = successStatus(contract);
  router[contract.method](toExpressPath(contract.path), async (req: Request, res: Response) => {
    refuseRole(contract, req);
    const params = contract.params ? parseRequestPart(contract.params, req.params, 'path') : undefined;
    const query = contract.query ? parseRequestPart(contract.query, req.query, 'query') : undefined;
    const jsonBody = contract.body !== undefined && contract.bodyType !== 'multipart';
    if (jsonBody && req.body === undefined && hasBody(req) && !req.is('application/json')) {
      throw badRequest('body must be JSON (Content-Type: application/json)');
    }
    const body = jsonBody ? parseRequestPart(contract.body, req.body ?? {}, 'body') : undefined;
    const result = await handler({ params, query, body, req, res } as RouteInput<C>);
    // The audit trail (audit-trail.ts) records a successful change before the answer goes out;
    // reads have none to record, and wait for nothing here.
    const recordChange = res.locals.recordChange;
    if (recordChange) await recordChange(contract, params, result, body);
    if (res.headersSent) return;
    // The contract's own status, set directly: Express's res.status() validates its argument on every call.
    res.statusCode = status;
    if (result === undefined) res.end();
    else res.json(result);
  });
}

