import { z } from 'zod';

const UnixMsParamSchema = z
  .string()
  .regex(/^\d{1,15}$/, 'must be an integer number of Unix milliseconds')
  .transform(Number);

/**
 * Query of the listings: `start` and `end` in Unix ms, both inclusive. `start` defaults to 0 and
 * `end` to now; the service rejects `start > end` (decisions.md § Lists).
 */
export const TimeRangeQuerySchema = z.strictObject({
  start: UnixMsParamSchema.optional(),
  end: UnixMsParamSchema.optional(),
});
export type TimeRangeQuery = z.infer<typeof TimeRangeQuerySchema>;
