import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { Logger } from 'pino';
import { HttpError } from '../../errors/http-error.js';
import type { AnswerModel, AnswerPrompt, PromptMessage } from './answer-model.js';

/** Provider failures are reported as 502: the service works, the upstream model did not. */
export function providerFailed(): HttpError {
  return new HttpError(502, ['the model provider failed to answer']);
}

/**
 * What a failed provider call becomes: the abort's reason when the signal aborted it, else a 502,
 * its cause logged once (a 502 already made is passed on).
 */
export function providerFailure(err: unknown, signal: AbortSignal, model: string, logger?: Logger): unknown {
  if (signal.aborted) return signal.reason ?? new Error('aborted');
  if (err instanceof HttpError && err.statusCode === 502) return err;
  logger?.warn({ err, model }, 'model provider error');
  return providerFailed();
}

function toModelMessage(message: PromptMessage): LanguageModelV3Message {
  return { role: message.role, content: [{ type: 'text', text: message.content }] };
}

/**
 * An {@link AnswerModel} on a provider model of the Vercel AI SDK (Anthropic, Google;
 * OpenAI-compatible models answer through `OpenAiChatAnswerModel`, which reads their stream
 * directly). Errors inside the stream (a provider `error` event mid-answer) are thrown from the
 * iterator as 502s; an abort ends the iteration by throwing the signal's reason.
 *
 * The provider model is called through its own `doStream`, not `streamText`: this service needs
 * text deltas and errors only, and `streamText`'s layers of web streams (step stitching, tool and
 * telemetry transforms, several per delta) were most of the CPU a streamed answer cost. Under a
 * burst of 1,000 open answers they starved the answers still being prepared (issue 12).
 * Retries are not wanted either: they would replay a half-streamed answer.
 */
export class AiSdkAnswerModel implements AnswerModel {
  constructor(private readonly languageModel: LanguageModelV3, private readonly logger?: Logger) {}

  async *stream(prompt: AnswerPrompt, signal: AbortSignal): AsyncIterable<string> {
    const reader = (await this.call(prompt, signal)).getReader();
    try {
      for (;;) {
        const { done, value } = await this.read(reader, signal);
        if (done) return;
        if (value.type === 'text-delta') {
          if (value.delta) yield value.delta;
        } else if (value.type === 'error') {
          throw this.failed(value.error, signal);
        }
      }
    } finally {
      // Stops reading the provider's response when the consumer leaves early (or on an error).
      reader.cancel().catch(() => {});
    }
  }

  private async call(prompt: AnswerPrompt, signal: AbortSignal): Promise<ReadableStream<LanguageModelV3StreamPart>> {
    try {
      const { stream } = await this.languageModel.doStream({
        prompt: [{ role: 'system', content: prompt.system }, ...prompt.messages.map(toModelMessage)],
        abortSignal: signal,
      });
      return stream;
    } catch (err) {
      throw this.failed(err, signal);
    }
  }

  private async read(reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>, signal: AbortSignal) {
    try {
      return await reader.read();
    } catch (err) {
      throw this.failed(err, signal);
    }
  }

  private failed(err: unknown, signal: AbortSignal): unknown {
    return providerFailure(err, signal, this.languageModel.modelId, this.logger);
  }
}
