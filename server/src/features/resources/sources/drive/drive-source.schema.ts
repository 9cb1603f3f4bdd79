import { z } from 'zod';

/**
 * A Google Drive file as an import wrote it (no endpoint creates DRIVE resources). Kept as given:
 * the response turns each field into the string the contract expects.
 */
export const DriveSourceSchema = z.object({
  file: z.record(z.string(), z.unknown()).optional(),
});
export type DriveSource = z.infer<typeof DriveSourceSchema>;
