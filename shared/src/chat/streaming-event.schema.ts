import { z } from 'zod';
import { AnswerMetaSchema } from './chat-source.schema.js';

/** One SSE `data:` payload of a chat stream. `data.text` is a delta, never cumulative. */
export const StreamingEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('partialResponse'),
    data: z.object({ text: z.string().describe('The next piece of the answer (a delta, never cumulative). The joined deltas carry no "Source: …" line.') }),
  }).describe('A delta of the answer.'),
  // `data` (sources, refused, handoff) is an extension; clients of the contract ignore it.
  z.object({
    type: z.literal('streamEnd'),
    data: AnswerMetaSchema.partial().extend({
      state: z.enum(['WAITING', 'HUMAN']).optional()
        .describe('Extension (issue 35): the conversation named in the embed chat is with the team: the bot did not answer; the message went to the team.'),
    }).optional().describe('Extension: what the plain answer carries beside `text`: `sources`, `refused`, `handoff`; `state` when the team has the conversation.'),
  }).describe('The answer is complete.'),
  z.object({ type: z.literal('error'), statusCode: z.int(), message: z.string(), error: z.string() })
    .describe('The answer failed after streaming began (502 when the model provider failed).'),
]).describe('One event of a chat stream: the JSON of one `data:` line.');
export type StreamingEvent = z.infer<typeof StreamingEventSchema>;
