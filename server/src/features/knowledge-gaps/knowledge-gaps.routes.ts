import { knowledgeGapsContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { KnowledgeGapsService } from './knowledge-gaps.service.js';
import type { SavedAnswersService } from './saved-answers.service.js';

/** Knowledge gaps as a work queue, and saved answers per chatbot (extensions). */
export function knowledgeGapsRoutes(gaps: KnowledgeGapsService, savedAnswers: SavedAnswersService): RouteTable {
  const router = routeTable();
  mountRoute(router, knowledgeGapsContract.listGaps, ({ req, params, query }) => gaps.list(authOf(req), params.id, query));
  mountRoute(router, knowledgeGapsContract.dismissGap, ({ req, params }) => gaps.dismiss(authOf(req), params.id, params.gapId));
  mountRoute(router, knowledgeGapsContract.saveAnswer, ({ req, params, body }) => savedAnswers.save(authOf(req), params.id, body));
  return router;
}
