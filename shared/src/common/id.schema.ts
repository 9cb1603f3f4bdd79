import { z } from 'zod';

/** Every entity id: 24 lower-case hex characters (decisions.md § Identifiers). */
export const IdSchema = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-character lower-case hex id');
export type Id = z.infer<typeof IdSchema>;

/** Path parameters of routes addressed by one id. */
export const IdParamsSchema = z.strictObject({ id: IdSchema });
export type IdParams = z.infer<typeof IdParamsSchema>;

/** Path parameters of the public embed routes. */
export const ChatbotIdParamsSchema = z.strictObject({ chatbotId: IdSchema });
