import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import { createRateLimiter } from '../../http/rate-limit.js';

const WINDOW_MS = 15 * 60_000;

/** The API key a sign-in tries, if its body has one (validation comes later and answers 400 otherwise). */
function triedKey(req: Request): string | undefined {
  const body: unknown = req.body;
  const apiKey = typeof body === 'object' && body !== null ? (body as { apiKey?: unknown }).apiKey : undefined;
  return typeof apiKey === 'string' ? apiKey : undefined;
}

/**
 * The limits on `POST /v1/session`, both counted in the database so every instance shares them,
 * every attempt counting (right or wrong key), per 15 minutes:
 * - per client address (`req.ip`, as far as TRUST_PROXY trusts `X-Forwarded-For`): no one address
 *   can try keys at the database's pace;
 * - per key tried (a hash of it, never the key): one key cannot be signed in again and again from
 *   many addresses.
 * Over either: 429 with no body, `Retry-After` and `RateLimit-*` (decisions.md § Errors).
 */
export function createSignInRateLimits(db: Knex, limits: Config['consoleSignIn']): RequestHandler[] {
  return [
    createRateLimiter({ db, prefix: 'console-sign-in-address', limit: limits.attemptsPerAddress, windowMs: WINDOW_MS, keyOf: (req) => req.ip ?? 'unknown' }),
    createRateLimiter({
      db, prefix: 'console-sign-in-key', limit: limits.attemptsPerKey, windowMs: WINDOW_MS,
      keyOf: (req) => createHash('sha256').update(`console-sign-in:${triedKey(req) ?? ''}`).digest('base64url'),
      skip: (req) => triedKey(req) === undefined,
    }),
  ];
}
