import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import { createRateLimiter } from '../../http/rate-limit.js';

const WINDOW_MS = 15 * 60_000;

/** A field of a sign-in's body, if it is a string (validation comes later and answers 400 otherwise). */
function tried(req: Request, field: 'apiKey' | 'email'): string | undefined {
  const body: unknown = req.body;
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The account a sign-in tries: its API key, or its e-mail address in lower case. */
function triedAccount(req: Request): string | undefined {
  const email = tried(req, 'email');
  return email === undefined ? tried(req, 'apiKey') : `email:${email.trim().toLowerCase()}`;
}

/**
 * The limits on `POST /v1/session`, both counted in the database so every instance shares them,
 * every attempt counting (right or wrong key), per 15 minutes:
 * - per client address (`req.ip`, as far as TRUST_PROXY trusts `X-Forwarded-For`): no one address
 *   can try keys at the database's pace;
 * - per account tried, an API key or a member's e-mail address (a hash of it, never the key): one
 *   account cannot be tried again and again from many addresses (password guessing).
 * Over either: 429 with no body, `Retry-After` and `RateLimit-*` (decisions.md § Errors).
 */
export function createSignInRateLimits(db: Knex, limits: Config['consoleSignIn']): RequestHandler[] {
  return [
    createRateLimiter({ db, prefix: 'console-sign-in-address', limit: limits.attemptsPerAddress, windowMs: WINDOW_MS, keyOf: (req) => req.ip ?? 'unknown' }),
    createRateLimiter({
      db, prefix: 'console-sign-in-key', limit: limits.attemptsPerKey, windowMs: WINDOW_MS,
      keyOf: (req) => createHash('sha256').update(`console-sign-in:${triedAccount(req) ?? ''}`).digest('base64url'),
      skip: (req) => triedAccount(req) === undefined,
    }),
  ];
}
