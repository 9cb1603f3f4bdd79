import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { compileRoutes, routeTable, type RouteTable } from './route-table.js';

/** An app with the tables compiled, a fallback answering "next" and an error handler answering "error: …". */
function appWith(...tables: RouteTable[]) {
  const app = express();
  app.use(compileRoutes(...tables));
  app.use((_req, res) => { res.send('next'); });
  const onError: ErrorRequestHandler = (err: Error & { statusCode?: number }, _req, res, _next) => { res.status(err.statusCode ?? 500).send(`error: ${err.message}`); };
  app.use(onError);
  return app;
}

const says = (text: string): RequestHandler => (req, res) => { res.json({ text, params: req.params }); };

describe('compileRoutes', () => {
  it('matches literal segments case-insensitively, with one trailing slash allowed', async () => {
    const table = routeTable().get('/v1/chatbot', says('list'));
    const app = appWith(table);
    for (const path of ['/v1/chatbot', '/V1/Chatbot', '/v1/chatbot/', '/v1/chatbot?x=1']) {
      expect((await request(app).get(path)).body.text).toBe('list');
    }
    for (const path of ['/v1/chatbots', '/v1/chatbot//', '/v1', '/v1//chatbot']) {
      expect((await request(app).get(path)).text).toBe('next');
    }
  });

  it('gives parameters decoded, keeping their case, and never empty', async () => {
    const app = appWith(routeTable().get('/v1/chatbot/:id/avatar', says('avatar')));
    expect((await request(app).get('/v1/chatbot/AbC%20d/avatar')).body).toEqual({ text: 'avatar', params: { id: 'AbC d' } });
    expect((await request(app).get('/v1/chatbot/a%2Fb/avatar')).body.params).toEqual({ id: 'a/b' });
    expect((await request(app).get('/v1/chatbot//avatar')).text).toBe('next');
  });

  it('answers a segment that is not valid percent-encoding with a 400', async () => {
    const app = appWith(routeTable().get('/x/:id', says('x')));
    const response = await request(app).get('/x/%E0%A4%A');
    expect(response.status).toBe(400);
    expect(response.text).toContain('is not valid percent-encoding');
  });

  it('tries routes in the order registered, across tables', async () => {
    const first = routeTable().get('/v1/resource/:id', says('by id'));
    const second = routeTable().get('/v1/resource/text', says('text')).post('/v1/resource/text', says('create text'));
    expect((await request(appWith(first, second)).get('/v1/resource/text')).body.text).toBe('by id');
    expect((await request(appWith(second, first)).get('/v1/resource/text')).body.text).toBe('text');
    expect((await request(appWith(first, second)).post('/v1/resource/text')).body.text).toBe('create text');
  });

  it("goes on to the next matching route on next(), next('route') and after a route's own middleware", async () => {
    const seen: string[] = [];
    const table = routeTable()
      .post(['/a', '/b'], (_req, _res, next) => { seen.push('limit'); next(); })
      .post('/a', (_req, _res, next) => { seen.push('skipped route'); next('route'); }, () => { seen.push('never'); })
      .post('/a', says('a'));
    const app = appWith(table);
    expect((await request(app).post('/a')).body.text).toBe('a');
    expect(seen).toEqual(['limit', 'skipped route']);
    expect((await request(app).post('/b')).text).toBe('next');
  });

  it('passes other methods and paths on', async () => {
    const app = appWith(routeTable().get('/v1/chatbot/:id', says('get')));
    expect((await request(app).delete('/v1/chatbot/abc')).text).toBe('next');
    expect((await request(app).get('/v1/chatbot/abc/more')).text).toBe('next');
  });

  it('runs a GET route for HEAD and answers OPTIONS with the methods of the path', async () => {
    const table = routeTable().get('/v1/chatbot/:id', says('get')).patch('/v1/chatbot/:id', says('patch')).delete('/v1/chatbot/:id', says('delete'));
    const app = appWith(table);
    const head = await request(app).head('/v1/chatbot/abc');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toContain('application/json');
    const options = await request(app).options('/v1/chatbot/abc');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    expect(options.text).toBe('DELETE, GET, HEAD, PATCH');
    expect((await request(app).options('/v1/elsewhere')).text).toBe('next');
  });

  it('hands thrown errors and rejected promises to the error handlers', async () => {
    const table = routeTable()
      .get('/throws', () => { throw new Error('thrown'); })
      .get('/rejects', async () => { await Promise.resolve(); throw new Error('rejected'); })
      .get('/passes', (_req, _res, next) => { next(new Error('passed')); });
    const app = appWith(table);
    for (const [path, message] of [['/throws', 'thrown'], ['/rejects', 'rejected'], ['/passes', 'passed']] as const) {
      const response = await request(app).get(path);
      expect(response.status).toBe(500);
      expect(response.text).toBe(`error: ${message}`);
    }
  });

  it('refuses route paths it cannot match as Express would', () => {
    expect(() => routeTable().get('/console/*rest', says('x'))).toThrow(/only literal segments/);
    expect(() => routeTable().get('relative', says('x'))).toThrow(/only literal segments/);
  });
});
