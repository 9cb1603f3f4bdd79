import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import { createRateLimiter } from '../../http/rate-limit.js';

/** The embed API's limiters; counters live in the database, shared by every instance. */
export interface EmbedRateLimits {
  /** Password attempts of one visitor on one chatbot. */
  session: RequestHandler;
  /** Chat, save and lead requests of one visitor on one chatbot (protects the owner's quota). */
  visitor: RequestHandler;
  /** Chat requests of all visitors of one chatbot together. */
  chatbot: RequestHandler;
}

// A visitor is its address (behind a proxy, TRUST_PROXY makes req.ip the client's); per chatbot,
// so one busy site does not starve another owner's visitors.
const visitorKey = (req: Request) => `${String(req.params.chatbotId)}:${req.ip ?? 'unknown'}`;

/** Builds the limiters from `config.embed` (decisions.md § Public embed traffic). */
export function createEmbedRateLimits(db: Knex, limits: Config['embed']): EmbedRateLimits {
  return {
    session: createRateLimiter({ db, prefix: 'embed-session', limit: limits.sessionAttemptsPer15Min, windowMs: 15 * 60_000, keyOf: visitorKey }),
    visitor: createRateLimiter({ db, prefix: 'embed-visitor', limit: limits.visitorRequestsPerMinute, windowMs: 60_000, keyOf: visitorKey }),
    chatbot: createRateLimiter({
      db, prefix: 'embed-chatbot', limit: limits.chatbotChatsPerMinute, windowMs: 60_000, keyOf: (req) => String(req.params.chatbotId),
    }),
  };
}
