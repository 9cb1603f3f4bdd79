import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpError } from '../errors/http-error.js';
import { toHttpError } from '../errors/to-http-error.js';

/** The one place that turns thrown errors into the API's error body (house-style.md § Errors). */
export const errorHandler = (logger: Logger): ErrorRequestHandler => (err, req, res, _next) => {
  const httpError = toHttpError(err);
  // A 503 is the service saying it is busy or not ready, not a failure to investigate.
  if (httpError.statusCode >= 500 && httpError.statusCode !== 503) logger.error({ reqId: req.id, err }, 'request failed');
  // A stream already began: its route sent an `error` event; only close the connection.
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(httpError.statusCode).set(httpError.headers).json(httpError.toBody());
};

/** Unknown paths answer 404 in the API's error shape. */
export const notFoundHandler: RequestHandler = (req) => {
  throw new HttpError(404, [`${req.method} ${req.path} not found`]);
};
