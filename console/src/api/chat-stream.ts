import { EventStreamDecoder, type ChatMessage, type ChatSource, type RouteContract } from '@parley/shared';
import { errorOf, sessionHeaders, urlOf } from './api-client.js';

/** How an answer ended: its sources and flags (extensions the server adds to `streamEnd`). */
export interface AnswerEnd { sources: ChatSource[]; refused?: boolean; handoff?: boolean }

/**
 * Streams a chat answer from a `…/chat-stream` route: `onDelta` gets each piece of text as it
 * arrives; resolves with the `streamEnd` metadata.
 * @throws ApiError before streaming, Error for an `error` event.
 */
export async function streamChat(
  route: RouteContract, body: { chatbotId?: string; resourceId?: string; conversation: ChatMessage[] },
  onDelta: (text: string) => void, signal?: AbortSignal,
): Promise<AnswerEnd> {
  const response = await fetch(urlOf(route, {}), {
    method: 'POST', credentials: 'same-origin', signal, headers: sessionHeaders('post', true), body: JSON.stringify(body),
  });
  if (!response.ok || !response.body) throw await errorOf(response);
  const decoder = new EventStreamDecoder();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the answer stopped before it was complete');
    for (const event of decoder.push(value)) {
      if (event.type === 'partialResponse') onDelta(event.data.text);
      else if (event.type === 'error') throw new Error(event.message);
      else return { sources: event.data?.sources ?? [], refused: event.data?.refused, handoff: event.data?.handoff };
    }
  }
}
