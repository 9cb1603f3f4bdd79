import { z } from 'zod';

/** One SSE `data:` payload of a chat stream. `data.text` is a delta, never cumulative. */
export const StreamingEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('partialResponse'), data: z.object({ text: z.string() }) }),
  z.object({ type: z.literal('streamEnd') }),
  z.object({ type: z.literal('error'), statusCode: z.int(), message: z.string(), error: z.string() }),
]);
export type StreamingEvent = z.infer<typeof StreamingEventSchema>;
