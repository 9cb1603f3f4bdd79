import type { Request, Response } from 'express';
import { HEARTBEAT_FRAME } from '@parley/shared';
import type { StoredLiveEvent } from '../../cluster/live-event-bus.js';
import { badRequest } from '../../errors/http-error.js';
import type { HandoffService } from './handoff.service.js';

export interface LiveStreamOptions {
  scope: { conversationId: string } | { organisationId: string };
  /** Only these events are sent (the visitor's stream skips its own and the bot's messages). */
  filter?: (event: StoredLiveEvent) => boolean;
  heartbeatMs: number;
  /** The stream ends after this long; the client reconnects with `Last-Event-ID`. */
  maxMs: number;
  /** Called while the stream is open, every `aliveEveryMs` (presence). */
  onAlive?: () => void;
  aliveEveryMs?: number;
}

/** `Last-Event-ID` (header, or `lastEventId` in the query for clients that cannot set headers). */
export function lastEventIdOf(req: Request): number | undefined {
  const raw = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('Last-Event-ID must be the id of an event of this stream');
  return Number(raw);
}

/**
 * Serves a live event stream: listens first, then replays the stored events after `Last-Event-ID`,
 * then sends live ones. Every event goes out once: those already replayed are skipped when they
 * also arrive live (event numbers grow in commit order per organisation, handoff.repository.ts).
 */
export async function serveLiveStream(req: Request, res: Response, handoff: HandoffService, options: LiveStreamOptions): Promise<void> {
  const afterId = lastEventIdOf(req);
  const bus = handoff.events;
  await bus.ready();
  let lastSent = afterId ?? 0;
  let replaying = true;
  let buffered: StoredLiveEvent[] = [];
  let closed = false;
  const accept = options.filter ?? (() => true);

  const send = (event: StoredLiveEvent) => {
    if (closed || event.id <= lastSent) return;
    lastSent = event.id;
    if (!accept(event)) return;
    res.write(`id: ${event.id}\ndata: ${JSON.stringify(event.event)}\n\n`);
  };
  const onEvent = (event: StoredLiveEvent) => {
    if (replaying) buffered.push(event);
    else send(event);
  };
  /** Sends what was stored after the last event sent, then what arrived meanwhile. */
  const catchUp = async () => {
    replaying = true;
    for (;;) {
      const stored = await handoff.eventsAfter(options.scope, lastSent);
      for (const event of stored) send(event);
      if (stored.length < 500) break;
    }
    replaying = false;
    const pending = buffered;
    buffered = [];
    for (const event of pending) send(event);
  };

  const unsubscribe = bus.subscribe(options.scope, onEvent);
  const unsubscribeResync = bus.onResync(() => { void catchUp().catch(() => res.destroy()); });
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  // Tells EventSource clients how soon to come back after the stream ends.
  res.write('retry: 2000\n\n');

  const heartbeat = setInterval(() => res.write(HEARTBEAT_FRAME), Math.max(1, options.heartbeatMs || 15_000));
  const alive = options.onAlive ? setInterval(options.onAlive, options.aliveEveryMs ?? 60_000) : undefined;
  const end = setTimeout(() => res.end(), options.maxMs);
  options.onAlive?.();
  const cleanUp = () => {
    closed = true;
    unsubscribe();
    unsubscribeResync();
    clearInterval(heartbeat);
    if (alive) clearInterval(alive);
    clearTimeout(end);
  };
  res.on('close', cleanUp);
  if (afterId === undefined) {
    // Nothing to replay: start with what happens next.
    replaying = false;
    const pending = buffered;
    buffered = [];
    for (const event of pending) send(event);
    return;
  }
  await catchUp();
}
