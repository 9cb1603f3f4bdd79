import type { z } from 'zod';
import { ErrorBodySchema } from '../errors/error-body.schema.js';
import type { Role } from '../members/member.schema.js';

/** How a route authenticates its caller. */
export type RouteSecurity = 'apiKey' | 'public' | 'embed';

export interface RouteResponse {
  readonly description: string;
  readonly schema?: z.ZodType;
  /** Defaults to `application/json` when a schema is given. */
  readonly contentType?: string;
}

/**
 * One operation of the API: the single description the server mounts and the OpenAPI document
 * is generated from. Paths use OpenAPI's `{param}` form.
 */
export interface RouteContract {
  readonly operationId: string;
  readonly method: 'get' | 'post' | 'put' | 'delete';
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly security: RouteSecurity;
  /**
   * The member roles that may call an `apiKey` route (extension); the server refuses every other
   * role with 403 where routes are mounted. API keys, and sessions made with one, may call every
   * route. Absent: `OWNER` only.
   */
  readonly roles?: readonly Role[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly bodyType?: 'json' | 'multipart';
  readonly responses: Readonly<Record<number, RouteResponse>>;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request: the body, query or an id is invalid; `message` names each field at fault.',
  401: 'Unauthorized: missing or invalid credentials.',
  402: 'Usage limit exceeded: the organisation\'s plan does not allow more.',
  403: 'Forbidden.',
  404: 'Not found (also for another organisation\'s ids).',
  409: 'Conflict.',
  500: 'Internal Server Error.',
};

/** The error responses of a route, each with the API's error body. 429 has no body. */
export function errorResponses(...statuses: number[]): Record<number, RouteResponse> {
  const responses: Record<number, RouteResponse> = {};
  for (const status of statuses) {
    responses[status] = status === 429
      ? { description: 'Too many requests: no body; see `Retry-After` and the `RateLimit-*` headers.' }
      : { description: ERROR_DESCRIPTIONS[status] ?? 'Error.', schema: ErrorBodySchema };
  }
  return responses;
}

/** Every role: reading, the inbox, the playground. */
export const ANY_ROLE: readonly Role[] = ['OWNER', 'ADMIN', 'AGENT'];
/** Changing chatbots and knowledge. */
export const MANAGERS: readonly Role[] = ['OWNER', 'ADMIN'];
/** Members, API keys and the audit log. */
export const OWNERS: readonly Role[] = ['OWNER'];

/** The roles that may call a route (`OWNER` alone when it declares none). */
export function rolesOf(contract: RouteContract): readonly Role[] {
  return contract.roles ?? OWNERS;
}

/** Declares a route while keeping its schema types for the server's handler. */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

/** The status of a route's success response (its lowest 2xx). */
export function successStatus(contract: RouteContract): number {
  const status = Object.keys(contract.responses).map(Number).filter((code) => code >= 200 && code < 300).sort()[0];
  if (status === undefined) throw new Error(`${contract.operationId} declares no success response`);
  return status;
}
