import type { NextFunction, Request, Response } from 'express';

/** The build writes `.br` and `.gz` copies beside each file (widget/vite.config.ts, console/vite.config.ts). */
const SUFFIX = { br: '.br', gzip: '.gz' } as const;

/**
 * Sends `file` from `root`: its brotli or gzip copy when the browser accepts one (brotli first,
 * about a tenth smaller), else the file itself. `contentType` is set for compressed copies, whose
 * own extension says nothing. Calls `onMissing` when the file does not exist.
 */
export function sendPrecompressed(
  req: Request, res: Response, next: NextFunction,
  options: { root: string; file: string; contentType: string; onMissing: () => void },
): void {
  res.vary('Accept-Encoding');
  const accepted = req.get('accept-encoding') ? req.acceptsEncodings('br') || req.acceptsEncodings('gzip') : false;
  const send = (encoding: keyof typeof SUFFIX | undefined): void => {
    const name = encoding ? `${options.file}${SUFFIX[encoding]}` : options.file;
    if (encoding) res.set({ 'content-encoding': encoding, 'content-type': options.contentType });
    res.sendFile(name, { root: options.root, cacheControl: false, dotfiles: 'deny' }, (err?: NodeJS.ErrnoException) => {
      if (!err) return;
      res.removeHeader('content-encoding');
      // A build without compressed copies: the plain file.
      if (encoding && err.code === 'ENOENT' && !res.headersSent) return send(undefined);
      if (err.code !== 'ENOENT') return next(err);
      options.onMissing();
    });
  };
  send(accepted === 'br' || accepted === 'gzip' ? accepted : undefined);
}
