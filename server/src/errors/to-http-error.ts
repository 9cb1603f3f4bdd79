import { formatIssues } from '@parley/shared';
import { ZodError } from 'zod';
import { fromDbError } from './db-errors.js';
import { HttpError, internalError } from './http-error.js';

interface BodyParserError { type?: string; status?: number; expose?: boolean }
interface MulterLikeError { name: string; code: string; field?: string }

const MULTER_MESSAGES: Record<string, (field?: string) => string> = {
  LIMIT_FILE_SIZE: (field) => `${field ?? 'file'} is too large`,
  LIMIT_FILE_COUNT: () => 'too many files',
  LIMIT_UNEXPECTED_FILE: (field) => `property ${field ?? 'file'} should not exist`,
  LIMIT_FIELD_COUNT: () => 'too many fields',
  LIMIT_FIELD_VALUE: (field) => `${field ?? 'a field'} is too long`,
  LIMIT_PART_COUNT: () => 'too many parts',
  LIMIT_FIELD_KEY: () => 'a field name is too long',
};

/** busboy's and multer's parse errors (plain Errors), each named for the client. */
const MULTIPART_MESSAGES: readonly (readonly [RegExp, string])[] = [
  [/^Multipart: Boundary not found$/, 'Content-Type must name the multipart boundary (multipart/form-data; boundary=...)'],
  [/^Malformed content type$/, 'Content-Type is malformed'],
  [/^Unsupported content type: /, 'Content-Type must be multipart/form-data'],
  [/^Missing Content-Type$/, 'Content-Type is required (multipart/form-data)'],
  [/^Unexpected end of form$/, 'the multipart body ended before its closing boundary'],
  [/^Unexpected end of file$/, 'the multipart file part ended before its boundary'],
  [/^Malformed part header$/, 'a multipart part has a malformed header'],
  [/^Malformed urlencoded form$/, 'the form body is malformed'],
  [/^Request (aborted|closed)$/, 'the request ended before the upload was complete'],
];

/**
 * The one table that turns anything thrown into what the API answers (house-style.md § Errors):
 * zod → 400 per issue, body-parser failures → 400/413, multer limits → 400, SQLSTATEs via
 * db-errors, everything else → 500.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ZodError) return new HttpError(400, formatIssues(err.issues));
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') return new HttpError(400, ['body must be valid JSON']);
  if (parserError?.type === 'entity.too.large') return new HttpError(400, ['body is too large']);
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new HttpError(400, ['body encoding is not supported']);
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500 && parserError.expose) {
    return new HttpError(400, ['the request is malformed']);
  }
  const multerError = err as MulterLikeError;
  if (multerError?.name === 'MulterError') {
    return new HttpError(400, [(MULTER_MESSAGES[multerError.code] ?? (() => 'the upload is malformed'))(multerError.field)]);
  }
  if (err instanceof URIError && (err as URIError & { status?: number }).status === 400) {
    return new HttpError(400, ['the path is not valid percent-encoding']);
  }
  const multipart = err instanceof Error ? MULTIPART_MESSAGES.find(([pattern]) => pattern.test(err.message)) : undefined;
  if (multipart) return new HttpError(400, [multipart[1]]);
  return fromDbError(err) ?? internalError();
}
