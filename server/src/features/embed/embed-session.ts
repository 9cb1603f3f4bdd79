import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';

const SETTINGS_KEY = 'embed_session_secret';
const VERSION = 'v1';

/**
 * The HMAC key of visitor sessions: `EMBED_SESSION_SECRET` when configured, otherwise a random
 * key generated once and kept in the `settings` table (under `settingsKey`), so every instance of a cluster (and every
 * restart) verifies the same tokens. The first instance to insert it wins; the others read it.
 */
export async function resolveSessionSecret(db: Knex, configured: string | undefined, settingsKey = SETTINGS_KEY): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  await db('settings').insert({ key: settingsKey, value: randomBytes(32).toString('base64url') }).onConflict('key').ignore();
  const row = await db('settings').where({ key: settingsKey }).first();
  return Buffer.from(String(row.value), 'base64url');
}

/** A short fingerprint of the stored password hash: changing the password ends every session. */
function passwordStamp(passwordHash: string | null): string {
  return createHash('sha256').update(passwordHash ?? '').digest('base64url').slice(0, 12);
}

/**
 * Signed, expiring visitor sessions of PRIVATE chatbots: `v1.<chatbotId>.<expiresAt>.<stamp>.<hmac>`.
 * Stateless, so any instance verifies a token another one issued.
 */
export class EmbedSessionSigner {
  constructor(private readonly secret: () => Promise<Buffer>, private readonly ttlMs: number) {}

  private async mac(payload: string): Promise<string> {
    return createHmac('sha256', await this.secret()).update(`embed-session:${payload}`).digest('base64url');
  }

  /** Issues a token for a chatbot whose password the visitor just proved. */
  async issue(chatbotId: string, passwordHash: string | null, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const expiresAt = now + this.ttlMs;
    const payload = [VERSION, chatbotId, expiresAt, passwordStamp(passwordHash)].join('.');
    return { token: `${payload}.${await this.mac(payload)}`, expiresAt };
  }

  /** Whether `token` is a live session of this chatbot with its current password. */
  async verify(token: string, chatbotId: string, passwordHash: string | null, now = Date.now()): Promise<boolean> {
    const parts = token.split('.');
    if (parts.length !== 5) return false;
    const [version, id, expiresAt, stamp, mac] = parts as [string, string, string, string, string];
    if (version !== VERSION || id !== chatbotId || !/^\d+$/.test(expiresAt) || Number(expiresAt) <= now) return false;
    if (stamp !== passwordStamp(passwordHash)) return false;
    const expected = Buffer.from(await this.mac(parts.slice(0, 4).join('.')));
    const actual = Buffer.from(mac);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
