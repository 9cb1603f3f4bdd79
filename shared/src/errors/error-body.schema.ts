import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/** The body of every error response: `message` always lists human-readable strings. */
export const ErrorBodySchema = z.object({
  statusCode: z.int(),
  message: z.array(z.string()),
  error: z.string(),
  /** Only on the 409 of resource deletion: the chatbots that use the resource. */
  chatbots: z.array(IdSchema).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
