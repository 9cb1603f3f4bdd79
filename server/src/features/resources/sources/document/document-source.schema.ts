import { z } from 'zod';
import { DocumentFormatSchema } from '@parley/shared';

/**
 * An uploaded document (Word, slides, Markdown, text, HTML, CSV): the stored file, its size and its
 * sniffed format; optional like a PDF's, so a row without per-type data still reads.
 */
export const DocumentSourceSchema = z.object({
  storagePath: z.string().optional(),
  fileSize: z.int().optional(),
  format: DocumentFormatSchema.optional(),
});
export type DocumentSource = z.infer<typeof DocumentSourceSchema>;
