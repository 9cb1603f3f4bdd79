import { z } from 'zod';

/**
 * An uploaded PDF: the FileStore key of the file and its size. Both are optional because rows
 * written without an upload (fixtures, rows from before the upload was kept) have none.
 */
export const PdfSourceSchema = z.object({
  storagePath: z.string().optional(),
  fileSize: z.int().optional(),
});
export type PdfSource = z.infer<typeof PdfSourceSchema>;
