import { feedbackContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { FeedbackService } from './feedback.service.js';

/** `GET /v1/feedback/{id}` (visitors give feedback through the embed feature). */
export function feedbackRoutes(feedback: FeedbackService): RouteTable {
  const router = routeTable();
  mountRoute(router, feedbackContract.list, ({ req, params, query }) => feedback.list(authOf(req), params.id, query));
  return router;
}
