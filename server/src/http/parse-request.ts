import { formatIssues, nulCharacterIssues } from '@parley/shared';
import { HttpError } from '../errors/http-error.js';

/**
 * Parses one part of a request (path, query, body, form fields) with its schema, after refusing
 * U+0000 anywhere in it: PostgreSQL cannot store it, and the 400 names the field like any other
 * schema issue (decisions.md § Errors: message names the field at fault).
 */
export function parseRequestPart<T>(schema: { parse(value: unknown): T }, value: unknown, root: string): T {
  assertNoNulCharacters(value, root);
  return schema.parse(value);
}

/** 400 naming every field of `value` that holds U+0000. */
export function assertNoNulCharacters(value: unknown, root: string): void {
  const issues = nulCharacterIssues(value);
  if (issues.length > 0) throw new HttpError(400, formatIssues(issues, root));
}
