import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/**
 * One passage an answer was drawn from (extension). `page` is 1-based for PDFs, `timestampSec`
 * marks a moment in a video, `url` is the web page (or hosted video) and `section` the heading
 * path inside the document ("FAQ › Returns"). `pairId` names a saved answer of a QA resource.
 */
export const ChatSourceSchema = z.object({
  resourceId: IdSchema.describe('The resource the passage belongs to.'),
  title: z.string().describe('The resource\'s name, or the web page\'s title.'),
  section: z.string().optional().describe('The heading path of the quoted text inside the document, outermost first, joined by " › ": "FAQ › Returns".'),
  page: z.int().min(1).optional().describe('The PDF page, from 1.'),
  url: z.string().optional().describe('The web page (or hosted video) the passage was read from.'),
  timestampSec: z.number().min(0).optional().describe('Where in the video the passage is spoken, in seconds.'),
  snippet: z.string().describe('The text the answer drew on (the sentences quoted, or the start of the passage), at most 240 characters, without headings.'),
  pairId: IdSchema.optional().describe('Extension: the saved answer (a pair of a `QA` resource, `GET /v1/resource/qa/{id}`) the answer is; `section` is then its first question.'),
}).describe('Extension: one passage an answer was drawn from.');
export type ChatSource = z.infer<typeof ChatSourceSchema>;

/**
 * What an answer carries beside its text (extension): its sources, whether it is the chatbot's
 * restrict text (`refused`), and whether the visitor asked for a person (`handoff`), so a widget
 * can offer the lead form.
 */
export const AnswerMetaSchema = z.object({
  sources: z.array(ChatSourceSchema)
    .describe('Extension: the passages the answer was drawn from, each place once; empty for the restrict text, conversation, or an answer that cites nothing.'),
  refused: z.boolean().optional()
    .describe('Extension: true when nothing in the chatbot\'s resources answers the question and the answer is exactly its '
      + '`restrictAnswersToResourcesContentResponse` text, or, to a visitor writing in a language the resources are not written in, '
      + 'a notice in the visitor\'s language naming the languages it answers in, with the contact offer.'),
  handoff: z.boolean().optional()
    .describe('Extension: true when the visitor asked to talk to a person, so a client can offer a contact form.'),
});
export type AnswerMeta = z.infer<typeof AnswerMetaSchema>;
