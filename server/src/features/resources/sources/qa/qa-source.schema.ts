import { z } from 'zod';

/**
 * A QA resource has no data in `resources.source`: its pairs are rows of `resource_qa_pairs`
 * (each with a stable id, added and deleted one at a time), which listings leave out.
 */
export const QaSourceSchema = z.object({});
export type QaSource = z.infer<typeof QaSourceSchema>;
