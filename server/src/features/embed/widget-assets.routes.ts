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

// Site owners paste a fixed URL, so the loader is cached briefly and revalidated by ETag; the
// files it loads later carry a content hash in their names, so they never change.
const LOADER_CACHE = 'public, max-age=300, stale-while-revalidate=3600';
const HASHED_CACHE = 'public, max-age=31536000, immutable';

/** The build's own file names only: `widget.js` and `widget-<name>.<hash>.js`; no paths, no other files. */
const WIDGET_FILE = /^widget(?:-[\w-]+)?(?:\.[\w-]{8})?\.js$/;
const HASHED_FILE = /^widget-[\w-]+\.[\w-]{8}\.js$/;

/** The build writes `.br` and `.gz` copies of every file beside it (widget/vite.config.ts). */
const ENCODINGS = { br: '.br', gzip: '.gz' } as const;

/**
 * Serves the built widget: `GET /widget.js` and the files it loads on demand (the emoji list,
 * one file per language), precompressed with brotli or gzip when the browser accepts it, with
 * ETags; a short public cache for the loader and an immutable one for hashed files.
 */
export function widgetAssetsRoutes(widgetDir: string): Router {
  const router = Router();
  router.get('/:file', (req, res, next) => {
    const { file } = req.params;
    if (!WIDGET_FILE.test(file)) return next();
    crossOrigin(req, res);
    res.vary('Accept-Encoding');
    res.set({ ...STATIC_HEADERS, 'cache-control': HASHED_FILE.test(file) ? HASHED_CACHE : LOADER_CACHE });
    // Brotli first whenever accepted: its file is about a tenth smaller than gzip's.
    const encoding = req.get('accept-encoding') ? req.acceptsEncodings('br') || req.acceptsEncodings('gzip') : false;
    const send = (name: string, contentEncoding: string | undefined): void => {
      if (contentEncoding) res.set({ 'content-encoding': contentEncoding, 'content-type': 'text/javascript; charset=utf-8' });
      res.sendFile(name, { root: widgetDir, cacheControl: false, dotfiles: 'deny' }, (err?: NodeJS.ErrnoException) => {
        if (!err) return;
        res.removeHeader('content-encoding');
        res.removeHeader('content-type');
        // A build without compressed copies (or an old one): the plain file.
        if (contentEncoding && err.code === 'ENOENT' && !res.headersSent) return send(file, undefined);
        res.removeHeader('cache-control');
        if (err.code !== 'ENOENT') return next(err);
        // A missing file: the whole build is missing, or just this name.
        next(existsSync(path.join(widgetDir, 'widget.js')) ? notFound(`/${file}`) : widgetNotBuilt());
      });
    };
    if (encoding === 'br' || encoding === 'gzip') send(`${file}${ENCODINGS[encoding]}`, encoding);
    else send(file, undefined);
  });
  return router;
}
