import { notificationSettingsContract, webhookContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { NotificationsService } from './notifications.service.js';
import type { WebhooksService } from './webhooks.service.js';

/** `/v1/webhook…` and `/v1/notification/settings` (extensions). */
export function notificationsRoutes(webhooks: WebhooksService, notifications: NotificationsService): RouteTable {
  const router = routeTable();
  mountRoute(router, webhookContract.create, ({ req, body }) => webhooks.create(authOf(req), body));
  mountRoute(router, webhookContract.list, ({ req }) => webhooks.list(authOf(req)));
  mountRoute(router, webhookContract.update, ({ req, params, body }) => webhooks.update(authOf(req), params.id, body));
  mountRoute(router, webhookContract.remove, ({ req, params }) => webhooks.remove(authOf(req), params.id));
  mountRoute(router, webhookContract.test, ({ req, params }) => webhooks.test(authOf(req), params.id));
  mountRoute(router, webhookContract.deliveries, ({ req, params }) => webhooks.deliveries(authOf(req), params.id));
  mountRoute(router, webhookContract.rotateSecret, ({ req, params }) => webhooks.rotateSecret(authOf(req), params.id));
  mountRoute(router, notificationSettingsContract.get, ({ req }) => notifications.settings(authOf(req)));
  mountRoute(router, notificationSettingsContract.update, ({ req, body }) => notifications.updateSettings(authOf(req), body));
  return router;
}
