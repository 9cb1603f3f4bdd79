import type { NextFunction, Request, RequestHandler } from 'express';
import { unauthorized } from '../errors/http-error.js';
import type { AuthContext, OrganisationsService } from '../features/organisations/organisations.service.js';
import './request-context.js';

/**
 * Resolves `x-api-key` into `req.auth`; 401 when it is missing, unknown or revoked. A key this
 * instance saw a moment ago passes on at once, without a promise to wait for.
 */
export function apiKeyAuth(organisations: OrganisationsService): RequestHandler {
  const lookUp = async (req: Request, key: string, next: NextFunction) => {
    const auth = await organisations.authenticate(key);
    if (!auth) throw unauthorized('the API key is invalid or revoked');
    req.auth = auth;
    next();
  };
  return (req, _res, next) => {
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw unauthorized('the x-api-key header is required');
    const cached = organisations.authenticateCached(key);
    if (!cached) return lookUp(req, key, next);
    req.auth = cached;
    next();
  };
}

/** The caller of an authenticated route. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
