import { z } from 'zod';

/** The most items one page may hold. */
export const MAX_PAGE_SIZE = 200;

/**
 * Paging of a listing (extension): `limit` items per page; `cursor` is the `nextCursor` of the
 * previous page (opaque). Without either, a listing answers in its contract's unpaged shape.
 */
export const PageQuerySchema = z.strictObject({
  limit: z.string().regex(/^\d{1,4}$/, 'must be an integer').transform(Number)
    .pipe(z.int().min(1, 'must be at least 1').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)).optional()
    .meta({ description: `Items per page, 1–${MAX_PAGE_SIZE}.` }),
  cursor: z.string().regex(/^[\w.-]{1,100}$/, 'must be a nextCursor of the previous page').optional()
    .meta({ description: 'The `nextCursor` of the previous page.' }),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;
