import { Router } from 'express';
import type { Knex } from 'knex';

/** A database check younger than this answers for the next health request. */
const FRESH_MS = 1_000;
/** A successful check older than this no longer vouches for the database: the request waits for a new one. */
const STALE_MS = 5_000;

/**
 * Whether the database answered recently. During a burst the database's connections are busy
 * with questions and a health request would queue behind them, so a check is shared by every
 * request while it runs, and a success less than 5 s old answers at once (while a new check runs
 * in the background when it is more than 1 s old). Any statement the database answers counts as
 * a success: the embedded database has one connection, and a long transaction (indexing a
 * 5,000,000-character text) holds it for seconds while answering statement after statement.
 */
export function databaseProbe(db: Knex, now: () => number = Date.now): () => Promise<boolean> {
  let lastSuccess = Number.NEGATIVE_INFINITY;
  db.on('query-response', () => { lastSuccess = now(); });
  let running: Promise<boolean> | undefined;
  const check = () => running ??= db.raw('select 1').then(
    () => { lastSuccess = now(); return true; },
    () => false,
  ).finally(() => { running = undefined; });
  return async () => {
    const age = now() - lastSuccess;
    if (age < FRESH_MS) return true;
    if (age < STALE_MS) {
      void check();
      return true;
    }
    return check();
  };
}

const unavailable = (message: string) => ({ statusCode: 503, message: [message], error: 'Service Unavailable' });

/**
 * `GET /health`: 200 when the service and its database answer, 503 otherwise (liveness).
 * `GET /health/ready` (extension): the same, and 503 with `Retry-After` until the instance has
 * warmed up (readiness, for a load balancer's probe). No key needed.
 */
export function healthRoutes(db: Knex, warmUp: { readonly done: boolean }): Router {
  const router = Router();
  const databaseUp = databaseProbe(db);
  router.get('/health', async (_req, res) => {
    if (await databaseUp()) res.json({ status: 'ok' });
    else res.status(503).json(unavailable('the database is unavailable'));
  });
  router.get('/health/ready', async (_req, res) => {
    if (!await databaseUp()) res.status(503).json(unavailable('the database is unavailable'));
    else if (!warmUp.done) res.status(503).set('Retry-After', '1').json(unavailable('the instance is warming up'));
    else res.json({ status: 'ready' });
  });
  return router;
}
