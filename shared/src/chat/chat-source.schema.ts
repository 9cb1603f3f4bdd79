import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/**
 * One passage an answer was drawn from (extension). `page` is 1-based for PDFs, `timestampSec`
 * marks a moment in a video, `url` is the web page (or hosted video) and `section` the heading
 * path inside the document ("FAQ › Returns").
 */
export const ChatSourceSchema = z.object({
  resourceId: IdSchema,
  title: z.string(),
  section: z.string().optional(),
  page: z.int().min(1).optional(),
  url: z.string().optional(),
  timestampSec: z.number().min(0).optional(),
  snippet: z.string(),
});
export type ChatSource = z.infer<typeof ChatSourceSchema>;

/**
 * What an answer carries beside its text (extension): its sources, whether it is the chatbot's
 * restrict text (`refused`), and whether the visitor asked for a person (`handoff`), so a widget
 * can offer the lead form.
 */
export const AnswerMetaSchema = z.object({
  sources: z.array(ChatSourceSchema),
  refused: z.boolean().optional(),
  handoff: z.boolean().optional(),
});
export type AnswerMeta = z.infer<typeof AnswerMetaSchema>;
