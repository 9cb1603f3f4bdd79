import type { LanguageModelV3 } from '@ai-sdk/provider';
import { streamText } from 'ai';
import type { Logger } from 'pino';
import { HttpError } from '../../errors/http-error.js';
import type { AnswerModel, AnswerPrompt } from './answer-model.js';

/** Provider failures are reported as 502: the service works, the upstream model did not. */
export function providerFailed(): HttpError {
  return new HttpError(502, ['the model provider failed to answer']);
}

/**
 * An {@link AnswerModel} on a provider model of the Vercel AI SDK (OpenAI-compatible, Anthropic,
 * Google). Errors inside the stream (a provider `error` event mid-answer) are thrown from the
 * iterator as 502s; an abort ends the iteration by throwing the signal's reason.
 */
export class AiSdkAnswerModel implements AnswerModel {
  constructor(private readonly languageModel: LanguageModelV3, private readonly logger?: Logger) {}

  async *stream(prompt: AnswerPrompt, signal: AbortSignal): AsyncIterable<string> {
    const result = streamText({
      model: this.languageModel,
      system: prompt.system,
      messages: prompt.messages,
      abortSignal: signal,
      // Retries would replay a half-streamed answer; the visitor can simply ask again.
      maxRetries: 0,
      // Errors arrive as `error` parts of fullStream below; this only keeps the SDK from logging them to stderr.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (part.text) yield part.text;
      } else if (part.type === 'error') {
        if (signal.aborted) throw signal.reason;
        this.logger?.warn({ err: part.error, model: this.languageModel.modelId }, 'model provider error');
        throw providerFailed();
      } else if (part.type === 'abort') {
        throw signal.reason ?? new Error('aborted');
      }
    }
  }
}
