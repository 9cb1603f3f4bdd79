import { modelsContract } from '@parley/shared';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { ModelRegistry } from '../../providers/llm/model-registry.js';

/** `GET /v1/model/all` (extension): what answers each model name on this service. */
export function modelsRoutes(models: ModelRegistry): RouteTable {
  const router = routeTable();
  mountRoute(router, modelsContract.list, () => ({ models: models.routing() }));
  return router;
}
