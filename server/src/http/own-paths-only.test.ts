import express, { Router } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ownPathsOnly } from './own-paths-only.js';

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
    const byParam = Router();
    byParam.get('/:file', (_req, res) => { res.end(); });
    expect(ownPathsOnly(byParam)).toBe(byParam);
  });
});
