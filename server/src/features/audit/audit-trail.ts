import type { RequestHandler } from 'express';
import type { RouteContract } from '@parley/shared';
import type { AuditService } from './audit.service.js';

/** Changes that touch no chatbot, knowledge, member or key: answers, saved chats, sign-out. */
const NOT_AUDITED = new Set([
  'chatWithChatbot', 'chatWithChatbotStream', 'chatWithResource', 'chatWithResourceStream', 'saveConversation', 'deleteSession',
]);

/** What `mountRoute` tells the audit trail after a route succeeded. */
export type RecordChange = (contract: RouteContract, params: unknown, result: unknown, body: unknown) => Promise<void>;

declare module 'express-serve-static-core' {
  interface Locals {
    /** Set on authenticated state-changing calls: records the change before the answer is sent. */
    recordChange?: RecordChange;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Gives authenticated POST, PUT and DELETE calls a `res.locals.recordChange`, which `mountRoute`
 * calls once a route succeeded: the audit log (who, which operation, on what) is written in one
 * place for every route, not by each handler.
 */
export function auditTrail(audit: AuditService): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    res.locals.recordChange = async (contract, params, result, body) => {
      if (contract.security !== 'apiKey' || NOT_AUDITED.has(contract.operationId) || !req.auth) return;
      // What the answer names, else what the request named (an invitation answers with its link only).
      const fields = { ...(typeof body === 'object' && body !== null ? body : {}), ...(typeof result === 'object' && result !== null ? result : {}) } as Record<string, unknown>;
      const id = text((params as Record<string, unknown> | undefined)?.id) ?? text(fields.id);
      await audit.record(req.auth, {
        action: contract.operationId, targetType: contract.tag,
        ...(id && /^[0-9a-f]{24}$/.test(id) ? { targetId: id } : {}),
        ...(text(fields.name) ?? text(fields.fileName) ?? text(fields.email) ? { targetName: text(fields.name) ?? text(fields.fileName) ?? text(fields.email) } : {}),
      });
    };
    next();
  };
}
