import { resourceContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { ResourceUpkeepService } from './resource-upkeep.service.js';

/** Extensions for keeping knowledge current: edit text, edit a website, sync now, passages. */
export function resourceUpkeepRoutes(upkeep: ResourceUpkeepService): RouteTable {
  const router = routeTable();
  mountRoute(router, resourceContract.getText, ({ req, params }) => upkeep.getText(authOf(req), params.id));
  mountRoute(router, resourceContract.updateText, ({ req, params, body }) => upkeep.updateText(authOf(req), params.id, body));
  mountRoute(router, resourceContract.getWebsite, ({ req, params }) => upkeep.getWebsite(authOf(req), params.id));
  mountRoute(router, resourceContract.updateWebsite, ({ req, params, body }) => upkeep.updateWebsite(authOf(req), params.id, body));
  mountRoute(router, resourceContract.sync, ({ req, params }) => upkeep.syncNow(authOf(req), params.id));
  mountRoute(router, resourceContract.passages, ({ req, params, query }) => upkeep.listPassages(authOf(req), params.id, query));
  return router;
}
