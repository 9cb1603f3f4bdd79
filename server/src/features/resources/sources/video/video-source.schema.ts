import { z } from 'zod';
import { PdfSourceSchema } from '../pdf/pdf-source.schema.js';

/** An uploaded MP4: the stored file as for a PDF, and its length in seconds read from its header. */
export const VideoSourceSchema = PdfSourceSchema.extend({
  videoLength: z.int().optional(),
});
export type VideoSource = z.infer<typeof VideoSourceSchema>;
