import { handoffContract } from '@parley/shared';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute } from '../../http/define-route.js';
import { actorOf } from '../../http/request-actor.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { HandoffService } from './handoff.service.js';
import { serveLiveStream } from './live-stream.js';

/** How long one live stream stays open before the client reconnects (with `Last-Event-ID`). */
export const LIVE_STREAM_MAX_MS = 30 * 60_000;

/** The team's side of live handoff: take over, reply, release, close, the inbox and its event stream. */
export function handoffRoutes(handoff: HandoffService, options: { heartbeatMs: number }): RouteTable {
  const router = routeTable();
  mountRoute(router, handoffContract.takeover, ({ req, params }) => handoff.takeOver(authOf(req), actorOf(req), params.id));
  mountRoute(router, handoffContract.reply, ({ req, params, body }) => handoff.reply(authOf(req), actorOf(req), params.id, body.text));
  mountRoute(router, handoffContract.release, ({ req, params }) => handoff.release(authOf(req), actorOf(req), params.id));
  mountRoute(router, handoffContract.close, ({ req, params }) => handoff.close(authOf(req), actorOf(req), params.id));
  mountRoute(router, handoffContract.inbox, ({ req, query }) => handoff.inbox(authOf(req), query));
  mountRoute(router, handoffContract.inboxEvents, async ({ req, res }) => {
    const { organisationId } = authOf(req);
    // While someone watches the inbox, the team counts as available.
    await serveLiveStream(req, res, handoff, {
      scope: { organisationId }, heartbeatMs: options.heartbeatMs, maxMs: LIVE_STREAM_MAX_MS,
      onAlive: () => { void handoff.touchPresence(organisationId); }, aliveEveryMs: 60_000,
    });
  });
  return router;
}
