import { z } from 'zod';
import { SyncFrequencySchema, WebsiteSettingsSchema } from '@parley/shared';

/**
 * A website: what to crawl and how (as created), how often to re-sync, and the pages the last
 * crawl indexed (shown as `website.subLinks` when pages are discovered).
 */
export const WebSourceSchema = z.object({
  url: z.string().optional(),
  subLinks: z.array(z.string()).default([]),
  settings: WebsiteSettingsSchema.default({}),
  syncFrequency: SyncFrequencySchema.optional(),
  indexedLinks: z.array(z.string()).optional(),
});
export type WebSource = z.infer<typeof WebSourceSchema>;
