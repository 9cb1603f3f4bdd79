import type { Response } from 'express';
import type { AnswerMeta, ChatResponse } from '@parley/shared';
import type { Logger } from 'pino';
import { toHttpError } from '../../errors/to-http-error.js';
import { openEventStream } from '../../http/event-stream.js';
import type { PreparedAnswer } from './prepared-answer.js';

export interface StreamAnswerOptions {
  /** Gap between heartbeat comments on an idle stream; 0 disables them. */
  heartbeatMs?: number;
  /** Where failures after the stream opened are logged. */
  logger?: Logger;
}

/**
 * Streams a prepared answer to `res` as SSE (decisions.md § Chat and streaming): status 201,
 * `partialResponse` deltas, then `streamEnd`; a failure after the stream opened becomes one
 * `error` event. A client that goes away aborts the model call. Resolves when the response ended.
 * Shared by the API's and the embed API's chat-stream routes. Returns what the answer carried
 * beside its text (`handoff`…), or undefined when it did not end.
 */
export async function streamAnswer(res: Response, answer: PreparedAnswer, options: StreamAnswerOptions = {}): Promise<AnswerMeta | undefined> {
  const stream = openEventStream(res, { heartbeatMs: options.heartbeatMs });
  try {
    let whole = '';
    for await (const text of answer.deltas(stream.signal)) {
      whole += text;
      stream.send({ type: 'partialResponse', data: { text } });
    }
    // `data` (sources, refused, handoff) is an extension of the contract's streamEnd.
    const meta = answer.meta(whole);
    stream.send({ type: 'streamEnd', data: meta });
    return meta;
  } catch (err) {
    if (stream.signal.aborted) return undefined;
    const httpError = toHttpError(err);
    if (httpError.statusCode >= 500) options.logger?.error({ err }, 'chat stream failed');
    stream.send({ type: 'error', ...httpError.toStreamFields() });
    return undefined;
  } finally {
    stream.close();
  }
}

/**
 * Produces a plain answer (`201 {text, sources, …}`), aborting the model call when the client goes away
 * first (`res` 'close' before the response finished). Returns undefined in that case: there is
 * nobody left to answer, and a vanished client is not a server error.
 */
export async function plainAnswer(res: Response, answer: PreparedAnswer): Promise<ChatResponse | undefined> {
  const controller = new AbortController();
  const abort = () => { if (!res.writableFinished) controller.abort(new Error('the client closed the connection')); };
  res.on('close', abort);
  // The client may have left while the answer was being prepared: 'close' has then already fired.
  if (res.destroyed || !res.socket || res.socket.destroyed) abort();
  try {
    const text = await answer.text(controller.signal);
    return { text, ...answer.meta(text) };
  } catch (err) {
    if (controller.signal.aborted) return undefined;
    throw err;
  }
}
