import { z } from 'zod';
import { TagsSchema } from '../common/tags.schema.js';
import { SyncFrequencySchema } from './resource-enums.schema.js';
import { WebsiteResourceCreateSchema } from './resource-create.schema.js';
import { WebsiteSettingsSchema } from './website-settings.schema.js';

/**
 * Body of `PUT /v1/resource/website/{id}` (extension): any of the creation fields. `settings`, when
 * given, replaces the stored settings whole. A change of `url`, `subLinks` or `settings` re-crawls
 * the website under the same id; the old pages answer until the new crawl is in.
 */
export const WebsiteResourceUpdateSchema = z.strictObject({
  url: WebsiteResourceCreateSchema.shape.url.optional(),
  subLinks: WebsiteResourceCreateSchema.shape.subLinks.unwrap().optional(),
  syncFrequency: SyncFrequencySchema.optional(),
  settings: WebsiteSettingsSchema.optional(),
  tags: TagsSchema.optional(),
}).refine((body) => Object.keys(body).length > 0, { message: 'must contain url, subLinks, syncFrequency, settings or tags', path: [] });
export type WebsiteResourceUpdate = z.infer<typeof WebsiteResourceUpdateSchema>;

/** `GET /v1/resource/website/{id}` (extension): a website's settings as given, for editing them. */
export const WebsiteResourceContentSchema = z.object({
  id: z.string(),
  url: z.string(),
  subLinks: z.array(z.string()).meta({ description: 'The sub-links as given (not the pages a discovering crawl found).' }),
  syncFrequency: SyncFrequencySchema,
  settings: WebsiteSettingsSchema,
  tags: z.array(z.string()),
});
export type WebsiteResourceContent = z.infer<typeof WebsiteResourceContentSchema>;
