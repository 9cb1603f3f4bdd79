import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type { Knex } from 'knex';

/** Expired windows are swept at most this often per store. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * An express-rate-limit store over the `rate_limit_hits` table: fixed windows whose counters live
 * in PostgreSQL (PGlite or a server), so every instance of a cluster shares them. One upsert per
 * hit: a window that has ended restarts at 1 in the same statement, so concurrent hits never lose
 * counts and no window outlives its reset time.
 */
export class PostgresRateLimitStore implements Store {
  /** Counters are shared, not per process (express-rate-limit's double-count check relies on this). */
  readonly localKeys = false;
  private lastSweep = 0;

  constructor(private readonly db: Knex, readonly prefix: string, private windowMs = 60_000) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const row = await this.db('rate_limit_hits').where({ key: this.prefix + key }).where('reset_at', '>', Date.now()).first();
    return row ? { totalHits: row.hits, resetTime: new Date(Number(row.reset_at)) } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = Date.now();
    const result = await this.db.raw(
      `INSERT INTO rate_limit_hits AS h (key, hits, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN h.reset_at <= ? THEN 1 ELSE h.hits + 1 END,
         reset_at = CASE WHEN h.reset_at <= ? THEN excluded.reset_at ELSE h.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, now + this.windowMs, now, now],
    );
    const row = (result.rows as { hits: number; reset_at: number | string }[])[0]!;
    this.sweep(now);
    return { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_at)) };
  }

  async decrement(key: string): Promise<void> {
    await this.db('rate_limit_hits').where({ key: this.prefix + key }).where('hits', '>', 0).decrement('hits', 1);
  }

  async resetKey(key: string): Promise<void> {
    await this.db('rate_limit_hits').where({ key: this.prefix + key }).delete();
  }

  /** Deletes ended windows now and then, in the background, so the table stays small. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    this.db('rate_limit_hits').where('reset_at', '<', now).andWhere('key', 'like', `${this.prefix}%`).delete()
      .catch(() => { /* a failed sweep is retried on a later hit; counting never depends on it */ });
  }
}

export interface RateLimiterOptions {
  db: Knex;
  /** Names the bucket: limiters with the same prefix share counters. */
  prefix: string;
  /** Requests allowed per window, or how many for this request (a chatbot's own budget). */
  limit: number | ((req: Request, res: Response) => number);
  windowMs: number;
  /** Who is counted: an API key id, a visitor token, an address. */
  keyOf(req: Request): string;
  /** Requests this limiter neither counts nor refuses (those with nothing to count by). */
  skip?(req: Request): boolean;
  /** Requests this limiter counts but never refuses, and answers without its headers. */
  spare?(req: Request, res: Response): boolean;
}

/**
 * A fixed-window rate limiter whose counters live in the database (shared by every instance).
 * Over the limit it answers 429 with no body, `Retry-After` and the `RateLimit-*` headers
 * (decisions.md § Errors); it counts every request before the route validates anything.
 */
export function createRateLimiter(options: RateLimiterOptions): RequestHandler {
  const store = new PostgresRateLimitStore(options.db, `${options.prefix}:`, options.windowMs);
  const { skip, spare } = options;
  const limiter = rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    store,
    keyGenerator: (req) => options.keyOf(req),
    ...(skip || spare ? { skip: (req: Request, res: Response) => skip?.(req) === true || spare?.(req, res) === true } : {}),
    handler: (_req, res) => { res.status(429).end(); },
    // Keys are ours (API key ids, tokens), not client addresses, so the IP checks do not apply.
    validate: { ip: false, trustProxy: false, xForwardedForHeader: false },
  });
  if (!spare) return limiter;
  return async (req, res, next) => {
    if (skip?.(req) || !spare(req, res)) return limiter(req, res, next);
    await store.increment(options.keyOf(req));
    next();
  };
}
