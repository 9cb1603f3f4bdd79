import { Router } from 'express';
import type { Knex } from 'knex';

/** `GET /health`: 200 when the service and its database answer, 503 otherwise. No key needed. */
export function healthRoutes(db: Knex): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    try {
      await db.raw('select 1');
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ statusCode: 503, message: ['the database is unavailable'], error: 'Service Unavailable' });
    }
  });
  return router;
}
