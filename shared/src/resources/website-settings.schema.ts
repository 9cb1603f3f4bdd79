import { z } from 'zod';

const SelectorsSchema = z
  .array(z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'))
  .max(100, 'must contain at most 100 selectors');

/** Crawl settings of a WEB resource (decisions.md § Resources and processing). */
export const WebsiteSettingsSchema = z.strictObject({
  delayBetweenExtractionMs: z.int('must be an integer').min(0, 'must be at least 0').max(60000, 'must be at most 60000').optional(),
  removeSelectors: SelectorsSchema.optional(),
  targetSelectors: SelectorsSchema.optional(),
  userAgent: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
});
export type WebsiteSettings = z.infer<typeof WebsiteSettingsSchema>;
