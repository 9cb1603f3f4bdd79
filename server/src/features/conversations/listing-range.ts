import { badRequest } from '../../errors/http-error.js';

/** A resolved listing range: inclusive Unix ms bounds and their ISO forms for the response. */
export interface ListingRange {
  start: number;
  end: number;
  startInterval: string;
  endInterval: string;
}

/** Dates beyond this are not representable (ECMAScript's time value range). */
const MAX_TIME_MS = 8.64e15;

/**
 * Applies the listing defaults (`start` 0, `end` now) and checks the range
 * (decisions.md § Lists). Shared by the conversation and lead listings.
 * @throws 400 when `start` is after `end`, including a future `start` with no `end`.
 */
export function resolveListingRange(query: { start?: number; end?: number }, now = Date.now()): ListingRange {
  const start = query.start ?? 0;
  const end = query.end ?? now;
  if (start > end) {
    throw badRequest(query.end === undefined
      ? 'start must not be in the future when end is omitted'
      : 'start must not be after end');
  }
  if (end > MAX_TIME_MS) throw badRequest(`end must be at most ${MAX_TIME_MS}`);
  return { start, end, startInterval: new Date(start).toISOString(), endInterval: new Date(end).toISOString() };
}
