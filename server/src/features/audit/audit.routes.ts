import { auditContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { AuditService } from './audit.service.js';

/** `GET /v1/audit/all` (OWNERs, by the contract's roles). */
export function auditRoutes(audit: AuditService): RouteTable {
  const router = routeTable();
  mountRoute(router, auditContract.list, ({ req, query }) => audit.list(authOf(req).organisationId, query));
  return router;
}
