import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/** One recorded change: who made it, which operation, on what, when. */
export const AuditEventSchema = z.object({
  id: IdSchema,
  actor: z.object({
    memberId: IdSchema.optional().meta({ description: 'The member, when one signed in; absent for an API key.' }),
    name: z.string().meta({ description: 'The member\'s name, or `API key "<name>"`.' }),
  }),
  action: z.string().meta({ description: 'The operation, as the OpenAPI document names it (`updateChatbot`, `deleteMember`…).', example: 'updateChatbot' }),
  targetType: z.string().meta({ description: 'The tag of the operation: `Chatbots`, `Resources`, `Members`…' }),
  targetId: IdSchema.optional(),
  targetName: z.string().optional(),
  createdAt: z.int().meta({ description: 'Unix ms.' }),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** `GET /v1/audit/all`: newest first, a page at a time. */
export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  nextCursor: z.string().optional().meta({ description: 'Present while older events follow: pass it as `cursor`.' }),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
