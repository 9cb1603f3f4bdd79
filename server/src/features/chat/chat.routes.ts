import { chatbotContract, resourceContract } from '@parley/shared';
import type { Logger } from 'pino';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { ChatService } from './chat.service.js';
import { plainAnswer, streamAnswer } from './stream-answer.js';

/** `/v1/chatbot/chat*` and `/v1/resource/chat*`: plain answers (201 {text}) and SSE streams. */
export function chatRoutes(chat: ChatService, options: { heartbeatMs: number; logger: Logger }): RouteTable {
  const router = routeTable();
  mountRoute(router, chatbotContract.chat, async ({ req, res, body }) => plainAnswer(res, await chat.prepareChatbotChat(authOf(req), body)));
  mountRoute(router, chatbotContract.chatStream, async ({ req, res, body }) => {
    await streamAnswer(res, await chat.prepareChatbotChat(authOf(req), body), options);
  });
  mountRoute(router, resourceContract.chat, async ({ req, res, body }) => plainAnswer(res, await chat.prepareResourceChat(authOf(req), body)));
  mountRoute(router, resourceContract.chatStream, async ({ req, res, body }) => {
    await streamAnswer(res, await chat.prepareResourceChat(authOf(req), body), options);
  });
  return router;
}
