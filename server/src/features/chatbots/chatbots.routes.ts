import path from 'node:path';
import { chatbotContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import { receiveUpload } from '../../http/upload.js';
import { MAX_AVATAR_BYTES, type ChatbotsService } from './chatbots.service.js';

/** `/v1/chatbot` CRUD and avatar upload (chat lives in the chat feature). */
export function chatbotsRoutes(chatbots: ChatbotsService, uploadDirectory: string): RouteTable {
  const router = routeTable();
  mountRoute(router, chatbotContract.list, ({ req }) => chatbots.list(authOf(req)));
  mountRoute(router, chatbotContract.create, ({ req, body }) => chatbots.create(authOf(req), body));
  mountRoute(router, chatbotContract.avatar, async ({ req, res, params }) => {
    const auth = authOf(req);
    await chatbots.getRecord(auth, params.id);
    const { file } = await receiveUpload(req, res, { directory: path.join(uploadDirectory, 'avatars'), maxBytes: MAX_AVATAR_BYTES });
    await chatbots.setAvatar(auth, params.id, file);
  });
  mountRoute(router, chatbotContract.get, ({ req, params }) => chatbots.get(authOf(req), params.id));
  mountRoute(router, chatbotContract.update, ({ req, params, body }) => chatbots.update(authOf(req), params.id, body));
  mountRoute(router, chatbotContract.remove, ({ req, params }) => chatbots.remove(authOf(req), params.id));
  return router;
}
