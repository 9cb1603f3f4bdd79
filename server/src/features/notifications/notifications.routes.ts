import type { RequestHandler } from 'express';
import { notificationSettingsContract, webhookContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { NotificationsService } from './notifications.service.js';
import type { WebhooksService } from './webhooks.service.js';

/**
 * `/v1/webhook…` and `/v1/notification/settings` (extensions). `testRateLimit` bounds the test
 * messages a key may send (each is a request from this service to a URL its owner chose).
 */
export function notificationsRoutes(webhooks: WebhooksService, notifications: NotificationsService, testRateLimit: RequestHandler): RouteTable {
  const router = routeTable();
  router.post(toExpressPath(webhookContract.test.path), testRateLimit);
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
