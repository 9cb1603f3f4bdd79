import { conversationContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { ConversationsService } from './conversations.service.js';

/** `POST /v1/conversation` and `GET /v1/conversation/{chatbotId}`. */
export function conversationsRoutes(conversations: ConversationsService): RouteTable {
  const router = routeTable();
  mountRoute(router, conversationContract.save, ({ req, body }) => conversations.save(authOf(req), body));
  mountRoute(router, conversationContract.list, async ({ req, res, params, query }) => {
    // Already JSON: the listing is serialised by the database (10k conversations stay fast).
    res.status(200).type('application/json').send(await conversations.listJson(authOf(req), params.id, query));
  });
  return router;
}
