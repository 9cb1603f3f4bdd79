import type { Knex } from 'knex';
import type { EmbedCheck, EmbedOriginSeen } from '@parley/shared';

/** Origins kept per chatbot and kind (loaded, refused): the newest. */
export const EMBED_ORIGINS_KEPT = 20;
/** An origin seen again within this time is not written again (one write per page view is too many). */
const REFRESH_MS = 60_000;

/** The sites a chatbot's widget was loaded on and the origins refused (`chatbot_embed_origins`). */
export class EmbedOriginsRepository {
  constructor(private readonly db: Knex) {}

  /** Records an origin as seen now; a new one pushes out the oldest beyond EMBED_ORIGINS_KEPT. */
  async record(chatbotId: string, origin: string, allowed: boolean, now = Date.now()): Promise<void> {
    const result = await this.db.raw(
      `INSERT INTO chatbot_embed_origins (chatbot_id, origin, allowed, last_seen_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (chatbot_id, allowed, origin) DO UPDATE SET last_seen_at = excluded.last_seen_at
       WHERE chatbot_embed_origins.last_seen_at < ?
       RETURNING (xmax = 0) AS inserted`,
      [chatbotId, origin.slice(0, 300), allowed, now, now - REFRESH_MS],
    );
    if (!(result.rows as { inserted: boolean }[])[0]?.inserted) return;
    await this.db('chatbot_embed_origins').where({ chatbot_id: chatbotId, allowed })
      .whereNotIn('origin', this.db('chatbot_embed_origins').select('origin').where({ chatbot_id: chatbotId, allowed })
        .orderBy('last_seen_at', 'desc').limit(EMBED_ORIGINS_KEPT))
      .delete();
  }

  /** A chatbot's origins, newest first. */
  async list(chatbotId: string): Promise<EmbedCheck> {
    const rows = await this.db('chatbot_embed_origins').where({ chatbot_id: chatbotId }).orderBy('last_seen_at', 'desc')
      .select('origin', 'allowed', 'last_seen_at') as { origin: string; allowed: boolean; last_seen_at: string | number }[];
    const seen = (allowed: boolean): EmbedOriginSeen[] => rows.filter((row) => row.allowed === allowed)
      .map((row) => ({ origin: row.origin, lastSeenAt: Number(row.last_seen_at) }));
    return { loaded: seen(true), refused: seen(false) };
  }
}
