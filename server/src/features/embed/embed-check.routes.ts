import { chatbotContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import type { EmbedOriginsRepository } from './embed-origins.repository.js';

/** `GET /v1/chatbot/{id}/embed-check` (extension): the sites that loaded the widget and the refused origins. */
export function embedCheckRoutes(chatbots: ChatbotsService, origins: EmbedOriginsRepository): RouteTable {
  const router = routeTable();
  mountRoute(router, chatbotContract.embedCheck, async ({ req, params }) => {
    // Another organisation's chatbot is a 404 like any other.
    await chatbots.getRecord(authOf(req), params.id);
    return origins.list(params.id);
  });
  return router;
}
