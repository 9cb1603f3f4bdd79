import { z } from 'zod';
import { PageQuerySchema } from '../common/page.schema.js';
import { TagsSchema } from '../common/tags.schema.js';
import { TextResourceCreateSchema } from './resource-create.schema.js';

/**
 * Body of `PUT /v1/resource/text/{id}` (extension): any of `name`, `content`, `tags`. A content
 * change re-indexes the resource under the same id; the old text answers until the new is in.
 */
export const TextResourceUpdateSchema = z.strictObject({
  name: TextResourceCreateSchema.shape.name.optional(),
  content: TextResourceCreateSchema.shape.content.optional(),
  tags: TagsSchema.optional(),
}).refine((body) => Object.keys(body).length > 0, { message: 'must contain name, content or tags', path: [] });
export type TextResourceUpdate = z.infer<typeof TextResourceUpdateSchema>;

/** `GET /v1/resource/text/{id}` (extension): a text resource's own text, for editing it. */
export const TextResourceContentSchema = z.object({
  id: z.string(),
  name: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
});
export type TextResourceContent = z.infer<typeof TextResourceContentSchema>;

/** Query of `GET /v1/resource/{id}/passages`: without `limit`, 50 passages per page. */
export const PassagesQuerySchema = PageQuerySchema;

/**
 * One indexed passage of a resource, with where it came from: `page` (1-based, PDFs), `url`
 * (web pages), `section` (the page or document title), `timestampSec` (videos).
 */
export const PassageSchema = z.object({
  text: z.string(),
  section: z.string().optional(),
  page: z.int().optional(),
  url: z.string().optional(),
  timestampSec: z.number().optional(),
});
export type Passage = z.infer<typeof PassageSchema>;

/** `GET /v1/resource/{id}/passages`: a page of passages in document order. */
export const PassageListingSchema = z.object({
  passages: z.array(PassageSchema),
  nextCursor: z.string().optional().meta({ description: 'Present when more passages follow; pass it as `cursor`.' }),
});
export type PassageListing = z.infer<typeof PassageListingSchema>;
