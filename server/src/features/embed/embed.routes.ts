import { Router, type RequestHandler, type Response } from 'express';
import { ChatbotIdParamsSchema, embedContract, feedbackContract } from '@parley/shared';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { parseRequestPart } from '../../http/parse-request.js';
import { streamAnswer, type StreamAnswerOptions } from '../chat/stream-answer.js';
import { markContinuing, type EmbedRateLimits } from './embed-rate-limits.js';
import type { EmbedService, EmbedVisitor } from './embed.service.js';

const EXPOSED_HEADERS = 'Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

function visitorOf(res: Response): EmbedVisitor {
  return res.locals.embedVisitor as EmbedVisitor;
}

/**
 * Runs first on every `/v1/embed/{chatbotId}/…` request: finds the chatbot, applies the origin
 * policy (403 when refused), then CORS for the accepted origin only (named, never `*`), and
 * answers preflights. Errors after this point carry the CORS headers, so the widget can read them.
 */
function admitVisitor(embed: EmbedService): RequestHandler {
  return async (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('origin');
    // A refused GET (the widget's config) may still be read by its page, so the widget can tell
    // the site owner why in the console; a refused page can send nothing: its preflights get no CORS.
    if (origin && req.method === 'GET') res.set('access-control-allow-origin', origin);
    const { chatbotId } = parseRequestPart(ChatbotIdParamsSchema, req.params, 'path');
    const visitor = await embed.admitVisitor(chatbotId, { origin, secFetchSite: req.get('sec-fetch-site'), referer: req.get('referer') });
    res.locals.embedVisitor = visitor;
    if (visitor.origin) res.set({ 'access-control-allow-origin': visitor.origin, 'access-control-expose-headers': EXPOSED_HEADERS });
    if (req.method !== 'OPTIONS') return next();
    res.set({
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'Content-Type, Authorization',
      'access-control-max-age': '600',
    }).status(204).end();
  };
}

/**
 * Before the chat limits: whether the chat continues a conversation this visitor saved (its id and
 * `visitorToken` in the body, checked against the database before the body is validated).
 */
function recogniseConversation(embed: EmbedService): RequestHandler {
  return async (req, res, next) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as { conversationId?: unknown; visitorToken?: unknown };
    markContinuing(res, await embed.continuesConversation(visitorOf(res), body.conversationId, body.visitorToken));
    next();
  };
}

/** The public embed API (decisions.md § Public embed traffic); mounted before API-key auth. */
export function embedRoutes(embed: EmbedService, limits: EmbedRateLimits, stream: StreamAnswerOptions): Router {
  const router = Router();
  router.use('/v1/embed/:chatbotId', admitVisitor(embed));

  mountRoute(router, embedContract.config, async ({ req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'), false);
    // The owner's changes show up on the next page view.
    res.set('cache-control', 'no-cache');
    embed.noteLoaded(visitorOf(res), req.get('sec-fetch-site'));
    return embed.config(visitorOf(res));
  });

  router.post(toExpressPath(embedContract.session.path), limits.session);
  mountRoute(router, embedContract.session, async ({ body, req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'), false);
    return embed.openSession(visitorOf(res), body.password);
  });

  router.post(
    toExpressPath(embedContract.chatStream.path),
    limits.visitor, recogniseConversation(embed), limits.chatbot, limits.visitorDaily, limits.chatbotDaily,
  );
  mountRoute(router, embedContract.chatStream, async ({ body, req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'));
    const answer = await embed.prepareChat(visitorOf(res), body.conversation);
    await streamAnswer(res, answer, stream);
  });

  router.post(toExpressPath(embedContract.conversation.path), limits.visitor);
  mountRoute(router, embedContract.conversation, async ({ body, req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'));
    return embed.saveConversation(visitorOf(res), body);
  });

  router.post(toExpressPath(embedContract.leads.path), limits.visitor);
  mountRoute(router, embedContract.leads, async ({ body, req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'));
    return embed.captureLead(visitorOf(res), body);
  });

  router.post(toExpressPath(feedbackContract.give.path), limits.visitor);
  mountRoute(router, feedbackContract.give, async ({ body, req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'));
    return embed.giveFeedback(visitorOf(res), body);
  });

  return router;
}
