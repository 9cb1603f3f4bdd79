import { z } from 'zod';
import { TagsSchema } from '../common/tags.schema.js';
import { SyncFrequencySchema } from './resource-enums.schema.js';
import { WebsiteSettingsSchema } from './website-settings.schema.js';

/** Upper bound of text `content` (decisions.md § Resources and processing). */
export const MAX_TEXT_CONTENT_CHARS = 5_000_000;
/** Uploads must be smaller than this many bytes. */
export const MAX_UPLOAD_BYTES = 1000 * 1024 * 1024;
/** Videos must be shorter than this many seconds. */
export const MAX_VIDEO_SECONDS = 120 * 60;

/** An absolute http(s) URL. */
export const HttpUrlSchema = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an http or https URL');

/** Body of `POST /v1/resource/text`. */
export const TextResourceCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'),
  content: z.string().min(1, 'must not be empty').max(MAX_TEXT_CONTENT_CHARS, `must be at most ${MAX_TEXT_CONTENT_CHARS} characters`),
  tags: TagsSchema.default([]),
});
export type TextResourceCreate = z.infer<typeof TextResourceCreateSchema>;

/** Body of `POST /v1/resource/video-host`: `hostedVideoId` is a string of digits. */
export const VideoHostResourceCreateSchema = z.strictObject({
  hostedVideoId: z.string().regex(/^\d{1,15}$/, 'must be a string of 1 to 15 digits'),
  tags: TagsSchema.default([]),
});
export type VideoHostResourceCreate = z.infer<typeof VideoHostResourceCreateSchema>;

/** Body of `POST /v1/resource/website`: the service fetches `url` and exactly the `subLinks`. */
export const WebsiteResourceCreateSchema = z.strictObject({
  url: HttpUrlSchema,
  subLinks: z.array(HttpUrlSchema).max(1000, 'must contain at most 1000 URLs').default([]),
  syncFrequency: SyncFrequencySchema.default('NEVER'),
  settings: WebsiteSettingsSchema.default({}),
  tags: TagsSchema.default([]),
});
export type WebsiteResourceCreate = z.infer<typeof WebsiteResourceCreateSchema>;

/**
 * The text fields of `POST /v1/resource/file` (multipart). `tags` may be repeated form fields or
 * one JSON array string; the server normalises both to an array before parsing.
 */
export const FileResourceFieldsSchema = z.strictObject({
  tags: TagsSchema.default([]),
});
export type FileResourceFields = z.infer<typeof FileResourceFieldsSchema>;

/** The multipart body as documented (the file part itself is checked by content). */
export const FileResourceUploadSchema = z.object({
  file: z.string().meta({ format: 'binary', description: 'A PDF or MP4 file, under 1000 MB; videos under 120 minutes. Extension: also a Word document (DOCX), PowerPoint slides (PPTX), Markdown, plain text (UTF-8), HTML or CSV file, recognised by content (type `DOCUMENT`).' }),
  tags: z.array(z.string()).optional(),
});
