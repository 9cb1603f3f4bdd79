import { CSRF_HEADER, type RouteContract } from '@parley/shared';
import type { z } from 'zod';

type InputOf<T> = T extends z.ZodType ? z.input<T> : never;
type OutputOf<T> = T extends z.ZodType ? z.output<T> : undefined;
// Numeric keys of a spread object literal may surface as strings (`"201"`), so both forms count.
type SuccessCode<C extends RouteContract> = Extract<keyof C['responses'], 200 | 201 | 202 | 204 | '200' | '201' | '202' | '204'>;

/** The parsed success body of a route, by its contract's 2xx response schema. */
export type ResponseOf<C extends RouteContract> = C['responses'][SuccessCode<C>] extends { schema: infer S } ? OutputOf<S> : undefined;

/** What a call to a route takes: its path params, query and JSON body, typed by its contract's schemas. */
export type RequestOf<C extends RouteContract> =
  & (C['params'] extends z.ZodType ? { params: InputOf<C['params']> } : { params?: never })
  & (C['query'] extends z.ZodType ? { query?: Partial<Record<keyof InputOf<C['query']>, string | string[] | number | undefined>> } : { query?: never })
  & (C['body'] extends z.ZodType ? (C['bodyType'] extends 'multipart' ? { body?: never } : { body: InputOf<C['body']> }) : { body?: never });

/** A refused call: the API's status and its `message` strings. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly messages: string[], readonly chatbots: string[] = []) {
    super(messages.join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

let csrfToken: string | undefined;
let onUnauthorized: () => void = () => {};

/** Keeps the session's CSRF token (in memory only) for state-changing calls. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** What to do when a call answers 401 (the session ended): the shell shows the sign-in page. */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

/** The URL of a route for the given params and query (also for links such as the CSV export). */
export function urlOf<C extends RouteContract>(route: C, request: Pick<RequestOf<C>, 'params' | 'query'>): string {
  const params = (request.params ?? {}) as Record<string, string>;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== '') search.append(name, String(item));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Headers of a call made with the session cookie. */
export function sessionHeaders(method: string, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (json) headers['content-type'] = 'application/json';
  if (method !== 'get' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  return headers;
}

/** Turns a refused response into an ApiError (and reports a 401). */
export async function errorOf(response: Response | { status: number; body: unknown }): Promise<ApiError> {
  const body = response instanceof Response ? await response.json().catch(() => undefined) : response.body;
  const record = (body ?? {}) as { message?: unknown; chatbots?: unknown };
  const messages = Array.isArray(record.message) ? record.message.map(String) : [];
  if (response.status === 401) onUnauthorized();
  return new ApiError(response.status, messages, Array.isArray(record.chatbots) ? record.chatbots.map(String) : []);
}

/**
 * Calls one route of the shared route table with the session cookie: the path, method and
 * types all come from the route's contract, so a call cannot drift from the API.
 * @throws ApiError for any non-2xx answer.
 */
export async function call<C extends RouteContract>(route: C, request: RequestOf<C>, signal?: AbortSignal): Promise<ResponseOf<C>> {
  const body = (request as { body?: unknown }).body;
  const response = await fetch(urlOf(route, request as Pick<RequestOf<C>, 'params' | 'query'>), {
    method: route.method.toUpperCase(), credentials: 'same-origin', signal,
    headers: sessionHeaders(route.method, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204 || !response.headers.get('content-type')?.includes('json')) return undefined as ResponseOf<C>;
  return await response.json() as ResponseOf<C>;
}
