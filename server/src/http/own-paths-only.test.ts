import express, { Router } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ownPathsOnly, underPath } from './own-paths-only.js';

/** An app whose feature router answers "feature" and whose fallback answers "next". */
function appWith(router: Router) {
  const app = express();
  app.use(ownPathsOnly(router));
  app.use((_req, res) => { res.send('next'); });
  return app;
}

function featureRouter() {
  const router = Router();
  router.get('/v1/chatbot/:id', (_req, res) => { res.send('feature'); });
  router.get(['/', '/console', '/console/*rest'], (_req, res) => { res.send('feature'); });
  router.use('/v1/embed/:chatbotId', (_req, res) => { res.send('feature'); });
  return router;
}

describe('ownPathsOnly', () => {
  it.each([
    '/v1/chatbot/abc', '/V1/Chatbot/abc', '/v1/chatbot/abc/', '/', '/console', '/console/', '/console/knowledge/x',
    '/v1/embed/abc', '/v1/embed/abc/chat-stream',
  ])('hands %s to the router', async (path) => {
    expect((await request(appWith(featureRouter())).get(path)).text).toBe('feature');
  });

  it.each(['/v1/chatbots', '/v1/resource/abc', '/consoles', '/v1/embedded/x', '/widget.js'])('passes %s on without the router', async (path) => {
    expect((await request(appWith(featureRouter())).get(path)).text).toBe('next');
  });

  it('leaves a router that may match any path as it is', () => {
    const everything = Router();
    everything.use((_req, _res, next) => next());
    expect(ownPathsOnly(everything)).toBe(everything);
    const wildcard = Router();
    wildcard.get('/*rest', (_req, res) => { res.end(); });
    expect(ownPathsOnly(wildcard)).toBe(wildcard);
  });

  it('hands a route of parameters only the paths of its number of segments', async () => {
    const byParam = Router();
    byParam.get('/:file', (_req, res) => { res.send('feature'); });
    for (const [path, seen] of [['/widget.js', 'feature'], ['/Widget.js/', 'feature'], ['/v1/chatbot', 'next'], ['/', 'next']]) {
      expect((await request(appWith(byParam)).get(path!)).text).toBe(seen);
    }
  });

  it('tries several routers in order, each only with its own paths, and goes on when one passes', async () => {
    const seen: string[] = [];
    const named = (name: string, path: string, answer: boolean) => {
      const router = Router();
      router.get(path, (_req, res, next) => { seen.push(name); if (answer) res.send(name); else next(); });
      return router;
    };
    const app = express();
    app.use(ownPathsOnly(named('first', '/a/:id', false), named('second', '/b/:id', true), named('third', '/a/:id', true)));
    app.use((_req, res) => { res.send('next'); });
    expect((await request(app).get('/a/1')).text).toBe('third');
    expect(seen).toEqual(['first', 'third']);
    seen.length = 0;
    expect((await request(app).get('/b/1')).text).toBe('second');
    expect((await request(app).get('/c/1')).text).toBe('next');
    expect(seen).toEqual(['second']);
  });

  it('hands a router error to the error handler without trying the other routers', async () => {
    const failing = Router();
    failing.get('/a', () => { throw new Error('boom'); });
    const other = Router();
    let reached = false;
    other.get('/a', (_req, res) => { reached = true; res.send('other'); });
    const app = express();
    app.use(ownPathsOnly(failing, other));
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => { res.status(500).send(err.message); });
    const response = await request(app).get('/a');
    expect([response.status, response.text, reached]).toEqual([500, 'boom', false]);
  });

  it('gives every request to a router among several that may match any path', async () => {
    const everything = Router();
    everything.use((_req, res) => { res.send('everything'); });
    const app = express();
    app.use(ownPathsOnly(featureRouter(), everything));
    expect((await request(app).get('/v1/chatbot/x')).text).toBe('feature');
    expect((await request(app).get('/anything')).text).toBe('everything');
  });
});

describe('underPath', () => {
  it.each([['/v1', true], ['/V1/chatbot', true], ['/v1/', true], ['/v10', false], ['/v1x/a', false], ['/health', false]])('%s under /v1: %s', async (path, under) => {
    const app = express();
    app.use(underPath('/v1', (_req, res) => { res.send('under'); }));
    app.use((_req, res) => { res.send('next'); });
    expect((await request(app).get(path)).text).toBe(under ? 'under' : 'next');
  });
});
