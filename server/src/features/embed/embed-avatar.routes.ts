import { Router } from 'express';
import { embedContract } from '@parley/shared';
import { mountRoute } from '../../http/define-route.js';
import type { EmbedService } from './embed.service.js';

/** `GET /v1/embed/{chatbotId}/avatar`, outside the embed router's origin check (see EmbedService.avatar). */
export function embedAvatarRoutes(embed: EmbedService): Router {
  const router = Router();
  mountRoute(router, embedContract.avatar, async ({ params, res }) => {
    const avatar = await embed.avatar(params.chatbotId);
    res.set({
      'content-type': avatar.contentType,
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    }).status(200).send(avatar.data);
  });
  return router;
}
