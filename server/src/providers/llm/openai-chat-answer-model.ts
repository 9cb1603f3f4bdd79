import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { EventDataDecoder } from '@parley/shared';
import type { Logger } from 'pino';
import { providerFailure } from './ai-sdk-answer-model.js';
import type { AnswerModel, AnswerPrompt } from './answer-model.js';
import { providerClient, type ProviderClient } from './provider-fetch.js';

/** OpenAI's own API, when no base URL is configured. */
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** How much of a failed response's body is read for the log line. */
const ERROR_BODY_LIMIT = 16_384;

/** The parts of a `chat.completion.chunk` (or, unstreamed, a `chat.completion`) an answer needs. */
interface CompletionPayload {
  choices?: { delta?: { content?: string | null; refusal?: string | null }; message?: { content?: string | null; refusal?: string | null } }[];
  error?: unknown;
}

/** The text a chunk adds: its content, or a refusal, which the visitor reads the same way. */
function textOf(part: { content?: string | null; refusal?: string | null } | undefined): string {
  return part?.content || part?.refusal || '';
}

/** An error for the log line of a failed call; its message says what the provider said. */
function providerError(message: string, details?: unknown): Error {
  return Object.assign(new Error(message), details === undefined ? {} : { details });
}

/**
 * An {@link AnswerModel} on an OpenAI-compatible Chat Completions API (OpenAI, Ollama, vLLM,
 * LiteLLM…), read straight off the HTTP response: SSE frames split with the contract's own
 * decoder, each chunk's `delta.content` yielded as it arrives.
 *
 * The AI SDK's reader of the same stream runs every chunk through four web streams and a zod
 * schema; under a burst of 1,000 streamed answers that was a quarter of the service's CPU, time the
 * answers still being prepared waited for (issue 12). The other families, and conversation
 * analysis, stay on the AI SDK.
 *
 * A status other than 2xx, an `error` payload, malformed JSON and a connection cut mid-response
 * are provider failures: logged, and thrown as the contract's 502. An abort throws the
 * signal's reason. No retries: they would replay a half-streamed answer.
 */
export class OpenAiChatAnswerModel implements AnswerModel {
  private readonly url: URL;

  constructor(
    private readonly settings: { apiKey: string; baseUrl?: string; model: string },
    private readonly logger?: Logger,
    private readonly client: ProviderClient = providerClient,
  ) {
    this.url = new URL(`${(settings.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/chat/completions`);
  }

  async *stream(prompt: AnswerPrompt, signal: AbortSignal): AsyncIterable<string> {
    const res = await this.call(prompt, signal);
    let done = false;
    try {
      if ((res.headers['content-type'] ?? '').includes('application/json')) {
        // A server that ignored `stream: true` answers with one chat.completion.
        const text = textOf(this.payload(await this.body(res, signal), signal).choices?.[0]?.message);
        done = true;
        if (text) yield text;
        return;
      }
      res.setEncoding('utf8');
      const frames = new EventDataDecoder();
      for await (const chunk of this.chunks(res, signal)) {
        for (const data of frames.push(chunk)) {
          if (data === '[DONE]') {
            done = true;
            return;
          }
          const text = textOf(this.payload(data, signal).choices?.[0]?.delta);
          if (text) yield text;
        }
      }
      // Some compatible servers end without `[DONE]`: a response that ended whole is the answer. One
      // whose connection dropped mid-body has thrown from the read above.
      done = true;
    } finally {
      // A finished answer's connection goes back to the pool at the response's 'end', which needs
      // its last bytes read: when they are all here, the answer ends once they are, so the next
      // answer finds the connection free. One left early (the visitor went, or an error) is
      // closed, which stops the provider generating.
      if (!done) res.destroy();
      else if (!res.complete) res.resume();
      else if (!res.readableEnded) await once(res.resume(), 'end').catch(() => {});
    }
  }

  /** Sends the request; resolves a 2xx response, or throws the failure (a non-2xx status read and logged). */
  private async call(prompt: AnswerPrompt, signal: AbortSignal): Promise<IncomingMessage> {
    const body = JSON.stringify({
      model: this.settings.model,
      messages: [{ role: 'system', content: prompt.system }, ...prompt.messages.map(({ role, content }) => ({ role, content }))],
      stream: true,
    });
    let res: IncomingMessage;
    try {
      res = await this.client.request(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${this.settings.apiKey}` },
        body,
        signal,
      });
    } catch (err) {
      throw this.failed(err, signal);
    }
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) return res;
    const text = await this.body(res, signal, ERROR_BODY_LIMIT).catch(() => '');
    res.destroy();
    let details: unknown = text;
    try {
      details = (JSON.parse(text) as { error?: unknown }).error ?? details;
    } catch {
      // Not JSON: the text as it came.
    }
    throw this.failed(providerError(`the provider answered ${status}`, details), signal);
  }

  /** The response's chunks; a read error is the provider's failure (or the abort). */
  private async *chunks(res: IncomingMessage, signal: AbortSignal): AsyncIterable<string> {
    try {
      // Leaving the loop early must not destroy the response: the caller decides (see `stream`).
      for await (const chunk of res.iterator({ destroyOnReturn: false })) yield chunk as string;
    } catch (err) {
      throw this.failed(err, signal);
    }
  }

  /** The response's whole body as text, up to `limit` characters. */
  private async body(res: IncomingMessage, signal: AbortSignal, limit = Infinity): Promise<string> {
    res.setEncoding('utf8');
    let text = '';
    for await (const chunk of this.chunks(res, signal)) {
      text += chunk;
      if (text.length >= limit) break;
    }
    return text.slice(0, limit);
  }

  /** One payload of the stream, parsed; an `error` payload or malformed JSON is the provider's failure. */
  private payload(data: string, signal: AbortSignal): CompletionPayload {
    let value: CompletionPayload;
    try {
      value = JSON.parse(data) as CompletionPayload;
    } catch {
      throw this.failed(providerError('the provider sent a payload that is not JSON', data.slice(0, 200)), signal);
    }
    if (value.error !== undefined && value.error !== null) throw this.failed(providerError('the provider reported an error', value.error), signal);
    return value;
  }

  private failed(err: unknown, signal: AbortSignal): unknown {
    return providerFailure(err, signal, this.settings.model, this.logger);
  }
}
