import { z } from 'zod';

/** One site seen by the embed API: its origin and when it was last seen (Unix ms, to the minute). */
export const EmbedOriginSeenSchema = z.object({
  origin: z.string().meta({ description: 'The page\'s origin, as its browser sent it (`https://shop.example.com`).' }),
  lastSeenAt: z.int().meta({ description: 'Unix ms; refreshed at most once a minute.' }),
});
export type EmbedOriginSeen = z.infer<typeof EmbedOriginSeenSchema>;

/**
 * `GET /v1/chatbot/{id}/embed-check` (extension): where the widget was loaded, newest first, and
 * which origins its allowed domains refused, so an owner sees a wrong domain without the visitor's
 * browser console. At most 20 of each are kept.
 */
export const EmbedCheckSchema = z.object({
  loaded: z.array(EmbedOriginSeenSchema).meta({ description: 'Sites other than this service that loaded the widget\'s settings, newest first.' }),
  refused: z.array(EmbedOriginSeenSchema).meta({ description: 'Origins refused by `allowedDomains`, newest first.' }),
});
export type EmbedCheck = z.infer<typeof EmbedCheckSchema>;
