import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ModelSchema, type Model, type ModelRouting } from '@parley/shared';
import type { Logger } from 'pino';
import { MODEL_TABLE, type Config, type ModelFamily } from '../../config.js';
import { AiSdkAnswerModel } from './ai-sdk-answer-model.js';
import type { AnswerModel } from './answer-model.js';
import { OpenAiChatAnswerModel } from './openai-chat-answer-model.js';
import { LocalAnswerModel } from './local/local-answer-model.js';
import type { SentenceEncoder } from './local/sentence-encoder.js';
import { providerFetch } from './provider-fetch.js';

/** How a chatbot's model runs: on a configured provider, or on the built-in local engine. */
export type ResolvedModel =
  | { kind: 'provider'; family: ModelFamily; providerModel: string; languageModel: LanguageModelV3 }
  | { kind: 'local' };

/**
 * Maps the API's model names to provider models (config's MODEL_TABLE). A family runs on its
 * provider when its credentials are configured; otherwise the local engine answers, so the service
 * works offline (decisions.md § Chat and streaming).
 */
export class ModelRegistry {
  private readonly cache = new Map<Model, ResolvedModel>();
  private readonly answerModels = new Map<Model, AnswerModel>();
  private readonly local: LocalAnswerModel;

  /** @param encoder ranks the local engine's sentences by meaning too (none: by words only). */
  constructor(
    private readonly providers: Config['providers'], private readonly logger?: Logger, encoder?: SentenceEncoder,
    private readonly modelMap: Config['modelMap'] = {},
  ) {
    this.local = new LocalAnswerModel(encoder);
    this.logRouting();
  }

  /** One line per model family: its provider, or the local engine standing in for it (the start banner shows these). */
  routingSummary(): string[] {
    const names = { openai: 'OpenAI-compatible (OPENAI_API_KEY)', anthropic: 'Anthropic (ANTHROPIC_API_KEY)', google: 'Google (GOOGLE_GENERATIVE_AI_API_KEY)' } as const;
    return (['openai', 'anthropic', 'google'] as const).map((family) => {
      const models = (Object.keys(MODEL_TABLE) as Model[]).filter((name) => MODEL_TABLE[name].family === family)
        .map((name) => (this.providers[family].apiKey && this.modelMap[name] ? `${name} (as ${this.modelMap[name]})` : name)).join(', ');
      return this.providers[family].apiKey ? `${models}: ${names[family]}` : `${models}: built-in local engine (no ${names[family].split('(')[1]!.replace(')', '')})`;
    });
  }

  /** What answers each API model name here, in the contract's order (`GET /v1/model/all`). */
  routing(): ModelRouting[] {
    return ModelSchema.options.map((name) => {
      const { family } = MODEL_TABLE[name];
      if (!this.providers[family].apiKey) return { name, engine: 'local' as const };
      return { name, engine: 'provider' as const, provider: family, providerModel: this.modelMap[name] ?? MODEL_TABLE[name].providerModel };
    });
  }

  /** Says once, at start, which model families run on their provider and which fall back to the local engine. */
  private logRouting(): void {
    for (const family of ['openai', 'anthropic', 'google'] as const) {
      const models = Object.entries(MODEL_TABLE).filter(([, entry]) => entry.family === family).map(([name]) => name);
      const { apiKey, baseUrl } = this.providers[family];
      if (apiKey) this.logger?.info({ family, models, baseUrl: baseUrl ?? 'default' }, 'model family served by its provider');
      else this.logger?.info({ family, models }, 'model family has no credentials: answered by the local engine');
    }
  }

  /** The {@link AnswerModel} a chatbot's model answers with: its provider's, or the local engine. */
  answerModel(model: Model): AnswerModel {
    let answerModel = this.answerModels.get(model);
    if (!answerModel) {
      const resolved = this.resolve(model);
      answerModel = resolved.kind === 'local' ? this.fallback(model) : this.providerAnswerModel(resolved);
      this.answerModels.set(model, answerModel);
    }
    return answerModel;
  }

  /** A provider model's answers: OpenAI-compatible ones read directly (see {@link OpenAiChatAnswerModel}), the others through the AI SDK. */
  private providerAnswerModel(resolved: Extract<ResolvedModel, { kind: 'provider' }>): AnswerModel {
    const logger = this.logger?.child({ family: resolved.family });
    if (resolved.family !== 'openai') return new AiSdkAnswerModel(resolved.languageModel, logger);
    const { apiKey, baseUrl } = this.providers.openai;
    return new OpenAiChatAnswerModel({ apiKey: apiKey!, model: resolved.providerModel, ...(baseUrl ? { baseUrl } : {}) }, logger);
  }

  /** The local engine standing in for a provider model without credentials; each answer is logged as a fallback. */
  private fallback(model: Model): AnswerModel {
    const { local, logger } = this;
    return {
      stream(prompt, signal) {
        logger?.debug({ model, engine: 'local', fallback: true }, 'answered by the local engine (no provider credentials)');
        return local.stream(prompt, signal);
      },
      citations: (prompt, text) => local.citations(prompt, text),
    };
  }

  resolve(model: Model): ResolvedModel {
    let resolved = this.cache.get(model);
    if (!resolved) {
      resolved = this.build(model);
      this.cache.set(model, resolved);
    }
    return resolved;
  }

  private build(model: Model): ResolvedModel {
    const { family } = MODEL_TABLE[model];
    const providerModel = this.modelMap[model] ?? MODEL_TABLE[model].providerModel;
    const { apiKey, baseUrl } = this.providers[family];
    if (!apiKey) return { kind: 'local' };
    const options = { apiKey, fetch: providerFetch, ...(baseUrl ? { baseURL: baseUrl } : {}) };
    const languageModel: LanguageModelV3 = family === 'openai'
      // .chat(): the Chat Completions API, which every OpenAI-compatible server (Ollama, vLLM) speaks.
      ? createOpenAI(options).chat(providerModel)
      : family === 'anthropic' ? createAnthropic(options)(providerModel) : createGoogleGenerativeAI(options)(providerModel);
    return { kind: 'provider', family, providerModel, languageModel };
  }
}
