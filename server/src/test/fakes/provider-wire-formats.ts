/**
 * The streaming wire formats of the three model provider families, as their real APIs send them:
 * what a fake needs to write so the real AI SDK clients parse it.
 */
export interface WireFormat {
  /** Whether this format serves the request path. */
  matches(path: string): boolean;
  /** Frames before the first delta. */
  start(model: string): string[];
  /** The frames of one text delta. */
  delta(text: string, model: string): string[];
  /** The frames that end a successful answer. */
  finish(model: string, body: Record<string, unknown>): string[];
  /** The provider's error event in the middle of a stream. */
  error(): string[];
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const CREATED = 1_763_800_000;

/** OpenAI Chat Completions (`POST /v1/chat/completions`, `stream: true`): chat.completion.chunk objects, then `[DONE]`. */
export const openaiWire: WireFormat = {
  matches: (path) => path === '/v1/chat/completions',
  start: (model) => [sse({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })],
  delta: (text, model) => [sse({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })],
  finish: (model, body) => [
    sse({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ...((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage
      ? [sse({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } })]
      : []),
    sse('[DONE]'),
  ],
  error: () => [sse({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } })],
};

/** Anthropic Messages (`POST /v1/messages`, `stream: true`): message_start, content_block_*, message_delta, message_stop. */
export const anthropicWire: WireFormat = {
  matches: (path) => path === '/v1/messages',
  start: (model) => [
    sse({ type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } }, 'message_start'),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    sse({ type: 'ping' }, 'ping'),
  ],
  delta: (text) => [sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta')],
  finish: () => [
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }, 'message_delta'),
    sse({ type: 'message_stop' }, 'message_stop'),
  ],
  error: () => [sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error')],
};

/** Google Gemini (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`): GenerateContentResponse chunks. */
export const googleWire: WireFormat = {
  matches: (path) => /^\/v1beta\/models\/[^/:]+:streamGenerateContent$/.test(path),
  start: () => [],
  delta: (text, model) => [sse({
    candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 1, totalTokenCount: 13 }, modelVersion: model,
  })],
  finish: (model) => [sse({
    candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 }, modelVersion: model,
  })],
  error: () => [sse({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } })],
};
