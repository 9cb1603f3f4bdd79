import type { RequestHandler } from 'express';

/**
 * Middleware run one after another as one layer of the application. Express's chain costs a few
 * microseconds a layer on every request (matching the layer's path, trimming prefixes), which the
 * small middleware every request passes through does not need. Errors go on as Express's own: a
 * thrown error, `next(err)` or a rejected promise reaches the error handler.
 */
export function inSeries(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[index++];
      if (handler === undefined) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.then(undefined, (error: unknown) => next(error ?? new Error('a middleware rejected')));
      } catch (error) {
        next(error);
      }
    };
    step();
  };
}
