import { existsSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { HttpError, notFound } from '../../errors/http-error.js';

/** The answer while widget/dist is empty: a clear message instead of a bare 404. */
export const widgetNotBuilt = () => new HttpError(503, ['the widget is not built yet: run `npm run build` (`npm start` builds it first)']);

const CROSS_ORIGIN = {
  // Lazy chunks load through import(), which fetches in CORS mode from the host page's origin.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};

/**
 * Serves the built widget: `GET /widget.js` (the URL site owners paste, so cached briefly and
 * revalidated by ETag) and its content-hashed lazy chunks `GET /widget-*.js` (cached for a year).
 */
export function widgetAssetsRoutes(widgetDir: string): Router {
  const router = Router();
  router.get('/widget.js', (_req, res, next) => {
    if (!existsSync(path.join(widgetDir, 'widget.js'))) throw widgetNotBuilt();
    res.set({ ...CROSS_ORIGIN, 'cache-control': 'public, max-age=300, stale-while-revalidate=3600' });
    res.sendFile('widget.js', { root: widgetDir, cacheControl: false, dotfiles: 'deny' }, (err) => { if (err) next(err); });
  });
  router.get('/:chunk', (req, res, next) => {
    const { chunk } = req.params;
    // Only the build's own chunk names: no paths, no other files of the directory.
    if (!/^widget-[\w-]+\.js$/.test(chunk)) return next();
    if (!existsSync(path.join(widgetDir, chunk))) throw existsSync(widgetDir) ? notFound(`/${chunk}`) : widgetNotBuilt();
    res.set(CROSS_ORIGIN);
    res.sendFile(chunk, { root: widgetDir, maxAge: '365d', immutable: true }, (err) => { if (err) next(err); });
  });
  return router;
}
