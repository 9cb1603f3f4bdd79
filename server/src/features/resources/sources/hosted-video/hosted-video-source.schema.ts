import { z } from 'zod';

/** A video on the configured video host, by its numeric id. */
export const HostedVideoSourceSchema = z.object({
  hostedVideoId: z.int().optional(),
});
export type HostedVideoSource = z.infer<typeof HostedVideoSourceSchema>;
