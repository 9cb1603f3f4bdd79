import { existsSync } from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
import { HttpError, notFound } from '../../errors/http-error.js';
import { sendPrecompressed } from '../../http/send-precompressed.js';

/** The answer while console/dist is empty: a clear message instead of a bare 404. */
const consoleNotBuilt = () => new HttpError(503, ['the console is not built yet: run `npm run build` (`npm start` builds it first)']);

/** Vite's content-hashed names (`index-BknDdaDv.js`): they never change, so they are cached for a year. */
const HASHED_FILE = /^[\w.-]+-[\w-]{8}\.(js|css)$/;
const TYPES = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' } as const;

/**
 * The console page's own policy: scripts only from this origin (the page and the widget preview),
 * no framing (clickjacking), styles inline too (Lit's style bindings). Images also from
 * `PUBLIC_URL`'s origin: avatars are stored with it (the widget shows them on other sites), and a
 * console opened at another address of the same service (127.0.0.1 for localhost) must show them.
 */
const pageHeaders = (publicUrl: string) => ({
  'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' ${new URL(publicUrl).origin} data: blob:; `
    + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  // The page is tiny and names the hashed files of the current build: always revalidated.
  'cache-control': 'no-cache',
});

/**
 * The owner console: its page at `/` and every `/console/…` client route, and its hashed files
 * under `/console-assets/`, precompressed and cached immutably.
 */
export function consoleAssetsRoutes(consoleDir: string, publicUrl: string): Router {
  const router = Router();
  const headers = pageHeaders(publicUrl);
  const built = () => existsSync(path.join(consoleDir, 'index.html'));
  const page = (res: Response, next: (err?: unknown) => void) => {
    res.set(headers);
    res.sendFile('index.html', { root: consoleDir, cacheControl: false, lastModified: true }, (err?: NodeJS.ErrnoException) => {
      if (!err) return;
      res.removeHeader('cache-control');
      next(err.code === 'ENOENT' ? consoleNotBuilt() : err);
    });
  };
  router.get(['/', '/console', '/console/*rest'], (_req, res, next) => page(res, next));
  router.get('/console-assets/:file', (req, res, next) => {
    const match = HASHED_FILE.exec(req.params.file);
    if (!match) return next(notFound(req.path));
    res.set({ 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' });
    sendPrecompressed(req, res, next, {
      root: path.join(consoleDir, 'console-assets'), file: req.params.file, contentType: TYPES[match[1] as keyof typeof TYPES],
      onMissing: () => { res.removeHeader('cache-control'); next(built() ? notFound(req.path) : consoleNotBuilt()); },
    });
  });
  return router;
}
