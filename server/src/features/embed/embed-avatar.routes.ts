import { Router } from 'express';
import { embedContract } from '@parley/shared';
import { forbidden, notFound } from '../../errors/http-error.js';
import { mountRoute } from '../../http/define-route.js';
import type { ChatbotsRepository } from '../chatbots/chatbots.repository.js';

/**
 * `GET /v1/embed/{chatbotId}/avatar`: the avatar is public appearance, like the embed config, so an
 * `<img>` (which sends no Origin) can load it; PROTECTED chatbots are never served.
 */
export function embedAvatarRoutes(chatbots: ChatbotsRepository): Router {
  const router = Router();
  mountRoute(router, embedContract.avatar, async ({ params, res }) => {
    const chatbot = await chatbots.findPublic(params.chatbotId);
    if (!chatbot) throw notFound(`chatbot ${params.chatbotId}`);
    if (chatbot.accessLevel === 'PROTECTED') throw forbidden('this chatbot is reachable only with an API key');
    const avatar = await chatbots.findAvatar(chatbot.id);
    if (!avatar) throw notFound(`avatar of chatbot ${chatbot.id}`);
    res.set({
      'content-type': avatar.contentType,
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    }).status(200).send(avatar.data);
  });
  return router;
}
