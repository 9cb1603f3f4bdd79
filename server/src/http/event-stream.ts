import type { Response } from 'express';
import { encodeEvent, HEARTBEAT_FRAME, type StreamingEvent } from '@parley/shared';

/** Default gap between heartbeat comments on an otherwise idle stream. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** An open Server-Sent Events response (decisions.md § Chat and streaming). */
export interface EventStream {
  /** Aborted when the client goes away before the stream was closed by us. */
  readonly signal: AbortSignal;
  /** Writes one event; a no-op once the client has gone. */
  send(event: StreamingEvent): void;
  /** Ends the response (idempotent). */
  close(): void;
}

export interface EventStreamOptions {
  /** Status of the stream's response; the chat contract answers 201. */
  status?: number;
  /** 0 disables heartbeats. */
  heartbeatMs?: number;
}

/**
 * Opens an SSE response: status 201 by default, `text/event-stream`, no caching or proxy buffering,
 * and a heartbeat comment whenever nothing was written for `heartbeatMs`.
 *
 * Disconnects are detected with `res.on('close')`, not `req.on('close')`: the request side has
 * already closed once the JSON body was read (house-style.md § Errors 6, MatthewWid/better-sse#116).
 */
export function openEventStream(res: Response, options: EventStreamOptions = {}): EventStream {
  const controller = new AbortController();
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  let closed = false;
  let lastWrite = Date.now();

  res.status(options.status ?? 201);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  // nginx and similar proxies buffer responses unless told not to; a buffered stream is no stream.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  // Small frames must leave at once rather than wait for Nagle's algorithm.
  res.socket?.setNoDelay(true);

  const write = (frame: string) => {
    if (closed || res.writableEnded || res.destroyed) return;
    lastWrite = Date.now();
    res.write(frame);
  };

  const timer = heartbeatMs > 0
    ? setInterval(() => { if (Date.now() - lastWrite >= heartbeatMs) write(HEARTBEAT_FRAME); }, Math.max(1, Math.floor(heartbeatMs / 2)))
    : undefined;
  timer?.unref();

  const onClose = () => {
    if (timer) clearInterval(timer);
    if (!closed) controller.abort(new Error('the client closed the connection'));
    closed = true;
  };
  res.on('close', onClose);
  // The client may have left while the answer was being prepared: 'close' has then already fired.
  if (res.destroyed || !res.socket || res.socket.destroyed) onClose();

  return {
    signal: controller.signal,
    send: (event) => write(encodeEvent(event)),
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      if (!res.writableEnded) res.end();
    },
  };
}
