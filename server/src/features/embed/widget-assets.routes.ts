import { existsSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { HttpError, notFound } from '../../errors/http-error.js';

/** The answer while widget/dist is empty: a clear message instead of a bare 404. */
export const widgetNotBuilt = () => new HttpError(503, ['the widget is not built yet: run `npm run build` (`npm start` builds it first)']);

const STATIC_HEADERS = { 'cross-origin-resource-policy': 'cross-origin', 'x-content-type-options': 'nosniff' };

/**
 * CORS for the widget's files. A chunk is loaded by `import()` from a classic script tag, which
 * fetches in CORS mode with credentials included, and browsers refuse `*` for those: so the
 * requesting origin is named. The files are public and no cookie is ever read, so any origin may.
 */
function crossOrigin(req: Request, res: Response): void {
  const origin = req.get('origin');
  res.vary('Origin');
  res.set(origin ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' } : { 'access-control-allow-origin': '*' });
}

// Site owners paste a fixed URL, so the files are cached briefly and revalidated by ETag.
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';

/**
 * Serves the built widget: `GET /widget.js` and the files it loads on demand (`GET /widget-*.js`,
 * such as widget-emoji.js), with ETags and a short public cache.
 */
export function widgetAssetsRoutes(widgetDir: string): Router {
  const router = Router();
  router.get('/:file', (req, res, next) => {
    const { file } = req.params;
    // Only the build's own file names: no paths, no other files of the directory.
    if (!/^widget(-[\w-]+)?\.js$/.test(file)) return next();
    crossOrigin(req, res);
    res.set({ ...STATIC_HEADERS, 'cache-control': CACHE_CONTROL });
    res.sendFile(file, { root: widgetDir, cacheControl: false, dotfiles: 'deny' }, (err?: NodeJS.ErrnoException) => {
      if (!err) return;
      res.removeHeader('cache-control');
      if (err.code !== 'ENOENT') return next(err);
      // A missing file: the whole build is missing, or just this name.
      next(existsSync(path.join(widgetDir, 'widget.js')) ? notFound(`/${file}`) : widgetNotBuilt());
    });
  });
  return router;
}
