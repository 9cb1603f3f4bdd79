import { badRequest } from '../../errors/http-error.js';

/** Where a page of a newest-first listing ends: the last item's `createdAt` and id. */
export interface PagePosition { createdAt: number; id: string }

/** Items per page when a paged listing gives a cursor but no `limit`. */
export const DEFAULT_PAGE_SIZE = 50;

export function encodePageCursor(position: PagePosition): string {
  return `${position.createdAt}.${position.id}`;
}

/** @throws 400 when the cursor was not made by {@link encodePageCursor}. */
export function decodePageCursor(cursor: string): PagePosition {
  const match = /^(\d{1,15})\.([0-9a-f]{24})$/.exec(cursor);
  if (!match) throw badRequest('cursor must be a nextCursor of the previous page');
  return { createdAt: Number(match[1]), id: match[2]! };
}

/** Escapes `%`, `_` and `\` so a search text matches literally in ILIKE. */
export function toLikePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
