import { HttpError, internalError } from './http-error.js';

interface PostgresError { code: string; constraint?: string; detail?: string }

function isPostgresError(err: unknown): err is PostgresError {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
    && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);
}

/**
 * Translates a PostgreSQL error (same SQLSTATEs from PGlite and the pg driver) into an HttpError,
 * or returns undefined when it is not one. Services check what they can before writing; these are
 * the races that slip through.
 */
export function fromDbError(err: unknown): HttpError | undefined {
  if (!isPostgresError(err)) return undefined;
  switch (err.code) {
    case '23505': return new HttpError(409, ['the object already exists']);
    case '23503': return new HttpError(404, ['a referenced object was not found']);
    case '22001': return new HttpError(400, ['a value is too long']);
    case '22P02': case '22003': case '22007': case '22008': return new HttpError(400, ['a value is malformed']);
    // A character the database cannot store (U+0000) that slipped past the request schemas.
    case '22021': case '22P05': return new HttpError(400, ['a text value contains a character that cannot be stored (NUL)']);
    case '57014': return new HttpError(503, ['the database timed out; try again']);
    default: return err.code.startsWith('08') || err.code.startsWith('53') ? new HttpError(503, ['the database is unavailable']) : internalError();
  }
}
