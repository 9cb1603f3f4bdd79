import { Router, type RequestHandler, type Response } from 'express';
import { ChatbotIdParamsSchema, embedContract, feedbackContract, handoffContract, type EmbedChatBody } from '@parley/shared';
import { notFound } from '../../errors/http-error.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { openEventStream } from '../../http/event-stream.js';
import { parseRequestPart } from '../../http/parse-request.js';
import { handoffJoiningReply } from '../../language/conversational-turn.js';
import { fixedAnswer, type PreparedAnswer } from '../chat/prepared-answer.js';
import { streamAnswer, type StreamAnswerOptions } from '../chat/stream-answer.js';
import { LIVE_STREAM_MAX_MS } from '../handoff/handoff.routes.js';
import type { HandoffService } from '../handoff/handoff.service.js';
import { serveLiveStream } from '../handoff/live-stream.js';
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
      'access-control-allow-headers': 'Content-Type, Authorization, X-Visitor-Token, Last-Event-ID',
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

/** Open visitor event streams per visitor address and chatbot, on this instance. */
export const MAX_VISITOR_STREAMS = 4;
/** Open visitor event streams per visitor address across all chatbots, on this instance. */
export const MAX_ADDRESS_STREAMS = 50;

/**
 * While the team has the conversation the chat names (WAITING or HUMAN), the visitor's message
 * goes to the team and the bot stays silent: the stream holds only `streamEnd` with the state.
 */
async function handedOff(handoff: HandoffService, embed: EmbedService, visitor: EmbedVisitor, body: EmbedChatBody, res: Response): Promise<boolean> {
  const last = body.conversation.at(-1);
  if (!body.conversationId || !body.visitorToken || !last?.fromUser) return false;
  const state = await handoff.visitorMessage(visitor.chatbot, body.conversationId, body.visitorToken, last.text);
  if (!state) return false;
  const stream = openEventStream(res, { heartbeatMs: 0 });
  stream.send({ type: 'streamEnd', data: { sources: [], state } });
  stream.close();
  // Nobody has taken it yet: the team is told the visitor is still there (mails at most every few minutes).
  if (state === 'WAITING') await embed.tellTeam(visitor, 'conversation.waiting_message', body.conversationId, last.text);
  return true;
}

/**
 * A request for a person while the team is available: the widget asks one to join (and says
 * someone will be with the visitor shortly), so the bot says a person is being asked rather than
 * offering the contact route it offers when nobody is there.
 */
async function teamJoining(handoff: HandoffService, visitor: EmbedVisitor, answer: PreparedAnswer): Promise<PreparedAnswer> {
  const question = answer.prompt?.turn === 'handoff' ? answer.prompt.question : undefined;
  if (question === undefined || !await handoff.isAvailable(visitor.chatbot)) return answer;
  return fixedAnswer(handoffJoiningReply(question), { sources: [], handoff: true });
}

/** The public embed API (decisions.md § Public embed traffic); mounted before API-key auth. */
export function embedRoutes(embed: EmbedService, limits: EmbedRateLimits, stream: StreamAnswerOptions, handoff: HandoffService): Router {
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
    if (await handedOff(handoff, embed, visitorOf(res), body, res)) return;
    const answer = await teamJoining(handoff, visitorOf(res), await embed.prepareChat(visitorOf(res), body.conversation));
    const meta = await streamAnswer(res, answer, stream);
    // After the answer ended: telling the team never delays the visitor's answer.
    if (meta?.handoff) await embed.handoffRequested(visitorOf(res), body);
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

  router.post(toExpressPath(handoffContract.visitorHandoff.path), limits.visitor);
  mountRoute(router, handoffContract.visitorHandoff, async ({ body, req, res }) => {
    await embed.assertAccess(visitorOf(res), req.get('authorization'));
    const outcome = await handoff.requestFromVisitor(visitorOf(res).chatbot, body.conversationId, body.visitorToken);
    // The secret was checked by the request: the team hears of it whether or not someone is there now.
    await embed.tellTeam(visitorOf(res), 'conversation.handoff_requested', body.conversationId, '');
    return outcome;
  });

  const openStreams = new Map<string, number>();
  router.get(toExpressPath(handoffContract.visitorEvents.path), limits.visitor);
  mountRoute(router, handoffContract.visitorEvents, async ({ params, req, res }) => {
    const visitor = visitorOf(res);
    await embed.assertAccess(visitor, req.get('authorization'));
    // The conversation's secret, not its id alone: a wrong or missing one is a 404, like an absent conversation.
    if (!await embed.continuesConversation(visitor, params.conversationId, req.get('x-visitor-token'))) {
      throw notFound(`conversation ${params.conversationId}`);
    }
    const address = req.ip ?? 'unknown';
    const keys = [`${visitor.chatbot.id}:${address}`, address];
    if ((openStreams.get(keys[0]!) ?? 0) >= MAX_VISITOR_STREAMS || (openStreams.get(address) ?? 0) >= MAX_ADDRESS_STREAMS) {
      // Like every limit of the API: 429 with Retry-After and no body.
      res.status(429).set('retry-after', '30').end();
      return;
    }
    for (const key of keys) openStreams.set(key, (openStreams.get(key) ?? 0) + 1);
    res.on('close', () => {
      for (const key of keys) {
        const left = (openStreams.get(key) ?? 1) - 1;
        if (left > 0) openStreams.set(key, left);
        else openStreams.delete(key);
      }
    });
    await serveLiveStream(req, res, handoff, {
      scope: { conversationId: params.conversationId }, heartbeatMs: stream.heartbeatMs ?? 15_000, maxMs: LIVE_STREAM_MAX_MS,
      // The visitor has its own messages and the bot's: it gets the team's and the state changes.
      filter: ({ event }) => event.type === 'state' || event.message.sender?.type === 'member',
    });
  });

  return router;
}
