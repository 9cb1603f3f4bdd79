import type { RequestHandler } from 'express';
import { knowledgeGapsContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { KnowledgeGapsService } from './knowledge-gaps.service.js';
import type { SavedAnswersService } from './saved-answers.service.js';

/** Knowledge gaps as a work queue, and saved answers per chatbot (extensions). */
export function knowledgeGapsRoutes(gaps: KnowledgeGapsService, savedAnswers: SavedAnswersService, creationRateLimit: RequestHandler): RouteTable {
  const router = routeTable();
  // A text for a chatbot is a resource created: counted in the same bucket, before anything else is checked.
  router.post(toExpressPath(knowledgeGapsContract.addText.path), creationRateLimit);
  mountRoute(router, knowledgeGapsContract.listGaps, ({ req, params, query }) => gaps.list(authOf(req), params.id, query));
  mountRoute(router, knowledgeGapsContract.dismissGap, ({ req, params }) => gaps.dismiss(authOf(req), params.id, params.gapId));
  mountRoute(router, knowledgeGapsContract.saveAnswer, ({ req, params, body }) => savedAnswers.save(authOf(req), params.id, body));
  mountRoute(router, knowledgeGapsContract.addText, ({ req, params, body }) => savedAnswers.addText(authOf(req), params.id, body));
  return router;
}
