import { insightsContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { InsightsService } from './insights.service.js';

/** `GET /v1/chatbot/{id}/stats`. */
export function insightsRoutes(insights: InsightsService): RouteTable {
  const router = routeTable();
  mountRoute(router, insightsContract.chatbotStats, ({ req, params, query }) => insights.chatbotStats(authOf(req), params.id, query));
  return router;
}
