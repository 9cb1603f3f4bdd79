import type { z } from 'zod';

/** PostgreSQL cannot store U+0000 in `text` or `jsonb`, so no request value may carry it. */
export const NUL_MESSAGE = 'must not contain NUL characters (U+0000)';

/** Enough issues to name the fields at fault without a flood of messages for a hostile body. */
const MAX_ISSUES = 20;

interface Visit { value: unknown; key?: PropertyKey; parent?: Visit }

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Whether a value is a scalar, or an object of scalars, without U+0000: most requests' path
 * parameters and queries, answered without the walk's allocations.
 */
function isCleanAndFlat(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'string' || !value.includes('\0');
  for (const key of Object.keys(value)) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (key.includes('\0') || (typeof child === 'object' && child !== null) || (typeof child === 'string' && child.includes('\0'))) return false;
  }
  return true;
}

/**
 * Finds every string (and object key) holding U+0000 in a parsed request value, as zod issues
 * whose path names the field, so they are reported like any other schema issue. The walk is
 * iterative and shares path prefixes: a deeply nested JSON body costs linear time and no stack.
 */
export function nulCharacterIssues(value: unknown): z.core.$ZodIssue[] {
  if (isCleanAndFlat(value)) return [];
  const issues: z.core.$ZodIssue[] = [];
  const pending: Visit[] = [{ value }];
  const report = (visit: Visit, message: string) => issues.push({ code: 'custom', path: pathOf(visit), message, input: undefined });
  for (let visit = pending.pop(); visit && issues.length < MAX_ISSUES; visit = pending.pop()) {
    if (typeof visit.value === 'string') {
      if (visit.value.includes('\0')) report(visit, NUL_MESSAGE);
    } else if (typeof visit.value === 'object' && visit.value !== null) {
      const isArray = Array.isArray(visit.value);
      for (const [key, child] of Object.entries(visit.value)) {
        if (key.includes('\0')) report(visit, `has a property name that ${NUL_MESSAGE}`);
        pending.push({ value: child, key: isArray ? Number(key) : key, parent: visit });
      }
    }
  }
  return issues.reverse();
}

/** Removes U+0000 from third-party text (PDF text, crawled pages, captions) before it is stored. */
export function stripNulCharacters(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '') : text;
}
