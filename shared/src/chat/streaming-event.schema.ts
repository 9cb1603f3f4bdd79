import { z } from 'zod';
import { AnswerMetaSchema } from './chat-source.schema.js';

/** One SSE `data:` payload of a chat stream. `data.text` is a delta, never cumulative. */
export const StreamingEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('partialResponse'), data: z.object({ text: z.string() }) }),
  // `data` (sources, refused, handoff) is an extension; clients of the contract ignore it.
  z.object({ type: z.literal('streamEnd'), data: AnswerMetaSchema.partial().optional() }),
  z.object({ type: z.literal('error'), statusCode: z.int(), message: z.string(), error: z.string() }),
]);
export type StreamingEvent = z.infer<typeof StreamingEventSchema>;
