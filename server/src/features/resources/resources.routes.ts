import type { RequestHandler } from 'express';
import { MAX_UPLOAD_BYTES, resourceContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import { receiveUpload } from '../../http/upload.js';
import type { ResourcesService } from './resources.service.js';

/** Text fields allowed beside the file: up to 50 repeated `tags` fields, with room for a mistake to be named. */
const MAX_UPLOAD_FIELDS = 60;

export interface ResourcesRoutesOptions {
  /** Shared by the creation endpoints (decisions.md § Resources: one bucket per API key; saved answers count too). */
  creationRateLimit: RequestHandler;
  /** Where uploads stream to before they are checked and kept. */
  incomingDirectory: string;
}

/** `/v1/resource`: list, get, delete and the creation endpoints (chat lives in the chat feature). */
export function resourcesRoutes(resources: ResourcesService, options: ResourcesRoutesOptions): RouteTable {
  const router = routeTable();
  const creation = [resourceContract.createFile, resourceContract.createText, resourceContract.createVideoHost, resourceContract.createWebsite, resourceContract.createQa];
  // Counted before anything else about the request is checked.
  router.post(creation.map((route) => toExpressPath(route.path)), options.creationRateLimit);
  mountRoute(router, resourceContract.list, ({ req }) => resources.list(authOf(req)));
  mountRoute(router, resourceContract.createText, ({ req, body }) => resources.createText(authOf(req), body));
  mountRoute(router, resourceContract.createVideoHost, ({ req, body }) => resources.createHostedVideo(authOf(req), body));
  mountRoute(router, resourceContract.createWebsite, ({ req, body }) => resources.createWebsite(authOf(req), body));
  mountRoute(router, resourceContract.createQa, ({ req, body }) => resources.createQa(authOf(req), body));
  mountRoute(router, resourceContract.createFile, async ({ req, res }) => {
    const auth = authOf(req);
    await resources.assertCanUpload(auth);
    const upload = await receiveUpload(req, res, { directory: options.incomingDirectory, maxBytes: MAX_UPLOAD_BYTES, maxFields: MAX_UPLOAD_FIELDS });
    return resources.createFile(auth, upload);
  });
  mountRoute(router, resourceContract.get, ({ req, params }) => resources.get(authOf(req), params.id));
  mountRoute(router, resourceContract.remove, ({ req, params }) => resources.remove(authOf(req), params.id));
  return router;
}
