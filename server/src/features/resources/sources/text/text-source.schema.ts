import { z } from 'zod';

/**
 * A TEXT resource has no data in `resources.source`: its text (up to 5 MB) stays in the
 * `text_content` column, which listings and status reads leave out.
 */
export const TextSourceSchema = z.object({});
export type TextSource = z.infer<typeof TextSourceSchema>;
