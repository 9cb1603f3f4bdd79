import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';
import { PageQuerySchema } from '../common/page.schema.js';
import { TimeRangeQuerySchema } from '../common/time-range.schema.js';

/** A lead as the listing returns it; absent contact fields are omitted. */
export const LeadSchema = z.object({
  createdAt: z.int(),
  email: z.string().optional(),
  name: z.string().optional(),
  phone: z.string().optional(),
  /** Extension: the conversation the lead was left in, when the widget linked it. */
  conversationId: IdSchema.optional(),
  /** Extension: the page the visitor was on when leaving the lead. */
  pageUrl: z.string().optional(),
});
export type Lead = z.infer<typeof LeadSchema>;

/** `GET /v1/lead/{chatbotId}`: the chatbot's leads in a range, newest first. */
export const LeadListingSchema = z.object({
  chatbotName: z.string(),
  startInterval: z.iso.datetime(),
  endInterval: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  leads: z.array(LeadSchema),
  /** Extension: present on a paged listing (`limit` or `cursor` given) while more leads follow. */
  nextCursor: z.string().optional(),
});
export type LeadListing = z.infer<typeof LeadListingSchema>;

/** A phone number in a sane international form: optional +, 7 to 15 digits, common separators. */
export const PhoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 ().-]{5,22}$/, 'must be a phone number such as +44 20 7946 0958')
  .refine((value) => { const digits = value.replace(/\D/g, '').length; return digits >= 7 && digits <= 15; },
    'must have 7 to 15 digits');

/** A visitor's contact details: at least an email or a phone. */
export const LeadCaptureSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    email: z.email('must be an email address').max(320, 'must be at most 320 characters').optional(),
    phone: PhoneSchema.optional(),
    conversationId: IdSchema.optional().describe('Extension: the conversation the visitor leaves the lead in (404 when it is not this chatbot\'s).'),
    pageUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000, 'must be at most 2000 characters').optional()
      .describe('Extension: the page the visitor was on.'),
  })
  .refine((lead) => lead.email !== undefined || lead.phone !== undefined, {
    message: 'must contain an email or a phone', path: [],
  });
export type LeadCapture = z.infer<typeof LeadCaptureSchema>;

/** Query of the lead listing: the time range and (extension) paging. */
export const LeadListingQuerySchema = TimeRangeQuerySchema.extend(PageQuerySchema.shape);
export type LeadListingQuery = z.infer<typeof LeadListingQuerySchema>;
