import type { Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { EmbedVisitor } from './embed.service.js';

/** The embed API's limiters; counters live in the database, shared by every instance. */
export interface EmbedRateLimits {
  /** Password attempts of one visitor on one chatbot. */
  session: RequestHandler;
  /** Chat, save and lead requests of one visitor on one chatbot (protects the owner's quota). */
  visitor: RequestHandler;
  /** Chat requests of all visitors of one chatbot together; refuses only new visitors (see `continuing`). */
  chatbot: RequestHandler;
  /** Chat messages of one visitor on one chatbot per day: a visitor's share of the chatbot's daily budget. */
  visitorDaily: RequestHandler;
  /**
   * Chat messages of all visitors of one chatbot per day: the owner's budget (`websiteIntegration.dailyVisitorMessages`);
   * refuses only new visitors (see `continuing`).
   */
  chatbotDaily: RequestHandler;
}

/**
 * Whether the request continues a conversation its visitor saved (set by the chat route from the
 * body's `conversationId` and `visitorToken`). The chatbot-wide limits count such a chat but never
 * refuse it: otherwise a handful of addresses, each within its own limits (60 a minute of 600, 200
 * a day of 5,000 by default), would use up the chatbot's share and cut off every visitor mid-
 * conversation. New visitors are refused once the chatbot's limit is reached; a continuing visitor
 * stays bound by its own per-visitor limits and by the plan's visitor share (402).
 */
export function markContinuing(res: Response, continuing: boolean): void {
  res.locals.embedContinuing = continuing;
}

const continuing = (_req: Request, res: Response) => res.locals.embedContinuing === true;

const DAY_MS = 24 * 60 * 60_000;

/** The chatbot's own daily budget for visitors, or the operator's default (the chatbot is admitted before). */
function dailyBudgetOf(res: Response, fallback: number): number {
  const visitor = res.locals.embedVisitor as EmbedVisitor | undefined;
  return visitor?.chatbot.websiteIntegration?.dailyVisitorMessages ?? fallback;
}

// A visitor is its address, never a client-chosen id (a new conversation or token does not reset
// it); behind a proxy, TRUST_PROXY (hop count or addresses) makes req.ip the address the proxy saw.
// Per chatbot, so one busy site does not starve another owner's visitors.
const visitorKey = (req: Request) => `${String(req.params.chatbotId)}:${req.ip ?? 'unknown'}`;

/** Builds the limiters from `config.embed` (decisions.md § Public embed traffic). */
export function createEmbedRateLimits(db: Knex, limits: Config['embed']): EmbedRateLimits {
  return {
    session: createRateLimiter({ db, prefix: 'embed-session', limit: limits.sessionAttemptsPer15Min, windowMs: 15 * 60_000, keyOf: visitorKey }),
    visitor: createRateLimiter({ db, prefix: 'embed-visitor', limit: limits.visitorRequestsPerMinute, windowMs: 60_000, keyOf: visitorKey }),
    chatbot: createRateLimiter({
      db, prefix: 'embed-chatbot', limit: limits.chatbotChatsPerMinute, windowMs: 60_000, keyOf: (req) => String(req.params.chatbotId), spare: continuing,
    }),
    visitorDaily: createRateLimiter({ db, prefix: 'embed-visitor-day', limit: limits.visitorMessagesPerDay, windowMs: DAY_MS, keyOf: visitorKey }),
    chatbotDaily: createRateLimiter({
      db, prefix: 'embed-chatbot-day', limit: (_req, res) => dailyBudgetOf(res, limits.chatbotMessagesPerDay), windowMs: DAY_MS,
      keyOf: (req) => String(req.params.chatbotId), spare: continuing,
    }),
  };
}
