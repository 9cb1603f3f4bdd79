import { resourceContract } from '@parley/shared';
import { authOf } from '../../../../http/api-key-auth.js';
import { mountRoute } from '../../../../http/define-route.js';
import { routeTable, type RouteTable } from '../../../../http/route-table.js';
import type { QaResourcesService } from './qa-resources.service.js';

/** Saved answers (extension): read, replace, add and delete the pairs of a QA resource (created with the other resources). */
export function qaResourcesRoutes(qa: QaResourcesService): RouteTable {
  const router = routeTable();
  mountRoute(router, resourceContract.getQa, ({ req, params }) => qa.get(authOf(req), params.id));
  mountRoute(router, resourceContract.updateQa, ({ req, params, body }) => qa.update(authOf(req), params.id, body));
  mountRoute(router, resourceContract.addQaPair, ({ req, params, body }) => qa.addPair(authOf(req), params.id, body));
  mountRoute(router, resourceContract.removeQaPair, ({ req, params }) => qa.removePair(authOf(req), params.id, params.pairId));
  return router;
}
