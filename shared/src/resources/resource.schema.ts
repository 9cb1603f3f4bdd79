import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { AiProcessingStatusSchema, DocumentFormatSchema, ResourceTypeSchema } from './resource-enums.schema.js';

/** A Google Drive file, as DRIVE resources carry it (read-only: no endpoint creates them). */
export const DriveResourceFileSchema = z.object({
  driveAccountId: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  webViewLink: z.string(),
  recursive: z.string(),
});

/** A knowledge resource as the API returns it; fields that do not apply to its type are omitted. */
export const ResourceSchema = z.object({
  id: IdSchema,
  organisation: IdSchema,
  creator: IdSchema,
  fileName: z.string(),
  type: ResourceTypeSchema,
  createdAt: z.int(),
  aiProcessingStatus: AiProcessingStatusSchema,
  tags: z.array(z.string()),
  hostedVideoId: z.int().optional(),
  driveResourceFile: DriveResourceFileSchema.optional(),
  website: z.object({ url: z.string(), subLinks: z.array(z.string()) }).optional(),
  videoLength: z.int().optional(),
  fileSize: z.int().optional(),
  /** Extension: a `DOCUMENT`'s format. */
  documentFormat: DocumentFormatSchema.optional(),
  syncFrequencyMs: z.int().optional(),
  lastSync: z.int().optional(),
  /** Extension: why processing failed, when it did. */
  failureReason: z.string().optional(),
  /** Extension: while `IN_PROGRESS`, the share of the work done (a video's audio transcribed, a scan's pages read by OCR), when it can be told. */
  processingProgress: z.number().min(0).max(1).optional()
    .describe('Extension: while `aiProcessingStatus` is `IN_PROGRESS`, the share of the work done (0 to 1), when it can be told: the part of a video\'s audio transcribed so far, or of a scanned PDF\'s pages read by OCR.'),
  /** Extension: a `DONE` resource's meaning index (the built-in engine's sentence vectors), filled in after it is searchable by words. */
  meaningIndex: z.object({
    state: z.enum(['PENDING', 'FILLING', 'COMPLETE']),
    progress: z.number().min(0).max(1),
  }).optional()
    .describe('Extension: on an instance whose built-in engine ranks by meaning, a `DONE` resource\'s meaning index: `DONE` means searchable by words; '
      + 'the sentence vectors that let answers match by meaning are filled in behind (`PENDING`, then `FILLING` with `progress` 0 to 1, then `COMPLETE`). '
      + 'Answers given meanwhile rank by words. Absent while the resource is not `DONE`, and on instances without the local sentence encoder.'),
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceListSchema = z.array(ResourceSchema);
