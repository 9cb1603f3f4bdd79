import { z } from 'zod';

/** Free-form labels: up to 50 tags of 1 to 100 characters (decisions.md § Resources and processing). */
export const TagsSchema = z
  .array(z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'))
  .max(50, 'must contain at most 50 tags');
