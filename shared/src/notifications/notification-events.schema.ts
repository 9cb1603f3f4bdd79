import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { FeedbackSchema } from '../feedback/feedback.schema.js';
import { LeadSchema } from '../leads/lead.schema.js';
import { ResourceSchema } from '../resources/resource.schema.js';
import type { NotificationEventType } from './notifications.schema.js';

/** `data` of the conversation events: the chatbot, the visitor's saved conversation when there is one, and what they wrote. */
const ConversationEventDataSchema = z.object({
  chatbotId: IdSchema,
  conversationId: IdSchema.optional().describe('Present when the chat continues a conversation the visitor saved.'),
  message: z.string().describe('The visitor\'s message (at most 2000 characters).'),
  source: z.enum(['website', 'link']).optional().describe('Where the visitor wrote: the widget on a site, or the chat link.'),
});

/** What each event's `data` holds: the object the API returns for it (with the chatbot where it has one). */
export const NOTIFICATION_EVENT_DATA: Record<NotificationEventType, { summary: string; schema: z.ZodType }> = {
  'lead.created': { summary: 'A visitor left contact details', schema: LeadSchema.extend({ chatbotId: IdSchema }) },
  'conversation.handoff_requested': { summary: 'A visitor asked for a person', schema: ConversationEventDataSchema },
  'conversation.waiting_message': { summary: 'A visitor waiting for a person wrote again', schema: ConversationEventDataSchema },
  'feedback.created': { summary: 'A visitor rated an answer', schema: FeedbackSchema.extend({ chatbotId: IdSchema }) },
  'resource.processed': { summary: 'A resource finished processing: DONE, FAILED or FAILED_NO_TEXT_FOUND with its failureReason', schema: ResourceSchema },
};

/** The body of one event's webhook message. */
export function notificationEventBodySchema(type: NotificationEventType): z.ZodType {
  return z.object({ type: z.literal(type), timestamp: z.iso.datetime(), data: NOTIFICATION_EVENT_DATA[type].schema });
}
