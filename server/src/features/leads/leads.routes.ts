import { leadContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { LeadsService } from './leads.service.js';

/** `GET /v1/lead/{chatbotId}` (visitors leave leads through the embed feature). */
export function leadsRoutes(leads: LeadsService): RouteTable {
  const router = routeTable();
  mountRoute(router, leadContract.list, ({ req, params, query }) => leads.list(authOf(req), params.id, query));
  mountRoute(router, leadContract.csv, async ({ req, res, params, query }) => {
    const { chatbotName, csv } = await leads.exportCsv(authOf(req), params.id, query);
    const fileName = `leads-${chatbotName.replace(/[^\w-]+/g, '-').slice(0, 60) || params.id}.csv`;
    res.status(200).type('text/csv; charset=utf-8').attachment(fileName).send(csv);
  });
  return router;
}
