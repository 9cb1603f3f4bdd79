import express, { type RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { inSeries } from './in-series.js';

const mark = (name: string): RequestHandler => (req, _res, next) => {
  (req as unknown as { seen: string[] }).seen = [...((req as unknown as { seen?: string[] }).seen ?? []), name];
  next();
};

function app(...handlers: RequestHandler[]) {
  const server = express();
  server.use(inSeries(...handlers));
  server.get('/', (req, res) => { res.json((req as unknown as { seen?: string[] }).seen ?? []); });
  server.use(((err, _req, res, _next) => { res.status(418).json({ error: String((err as Error).message) }); }) as express.ErrorRequestHandler);
  return supertest(server);
}

describe('inSeries', () => {
  it('runs each middleware in order, then the rest of the application', async () => {
    expect((await app(mark('a'), mark('b'), mark('c')).get('/')).body).toEqual(['a', 'b', 'c']);
  });

  it('hands a thrown error, next(err) and a rejected promise to the error handler and stops there', async () => {
    const thrown: RequestHandler = () => { throw new Error('thrown'); };
    const passed: RequestHandler = (_req, _res, next) => next(new Error('passed'));
    const rejected: RequestHandler = async () => { throw new Error('rejected'); };
    for (const [handler, message] of [[thrown, 'thrown'], [passed, 'passed'], [rejected, 'rejected']] as const) {
      const res = await app(mark('a'), handler, mark('never')).get('/');
      expect(res.status).toBe(418);
      expect(res.body).toEqual({ error: message });
    }
  });

  it('lets a middleware answer the request itself', async () => {
    const answer: RequestHandler = (_req, res) => { res.status(204).end(); };
    expect((await app(mark('a'), answer, mark('never')).get('/')).status).toBe(204);
  });
});
