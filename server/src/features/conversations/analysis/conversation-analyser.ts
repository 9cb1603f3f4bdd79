import type { Knex } from 'knex';
import type { AnalysisResult } from '@parley/shared';
import type { AnalysisCustomField } from '../../../config.js';
import type { ModelRegistry } from '../../../providers/llm/model-registry.js';
import { retrieveChunks } from '../../resources/retrieve-chunks.js';
import type { ChatbotRecord } from '../../chatbots/chatbots.repository.js';
import type { ConversationRecord } from '../conversations.repository.js';
import { analysisWindow } from './analysis-window.js';
import { analyseLocally } from './local-analyser.js';
import { analyseWithModel } from './model-analyser.js';
import { findUnansweredQuestions } from './unanswered-questions.js';

/** Analysis timeout of one model call; the job retries after it. */
const MODEL_TIMEOUT_MS = 120_000;

/**
 * Analyses a conversation with the chatbot's model when its provider is configured, otherwise
 * with the local analyser; both add the questions the chatbot could not answer from its resources.
 */
export class ConversationAnalyser {
  constructor(
    private readonly db: Knex,
    private readonly models: ModelRegistry,
    private readonly customFields: readonly AnalysisCustomField[],
  ) {}

  /** @throws whatever the model call throws (provider error, invalid output, timeout, abort). */
  async analyse(conversation: ConversationRecord, chatbot: ChatbotRecord, signal: AbortSignal): Promise<AnalysisResult> {
    // The latest part only: the cost of an analysis must not grow with the conversation.
    const messages = analysisWindow(conversation.messages);
    const unansweredQuestions = await findUnansweredQuestions(messages, {
      restrictText: chatbot.restrictAnswersToResourcesContentResponse,
      // Full-text ranking only: vector search always has some nearest neighbour, so it cannot say
      // that the resources hold nothing relevant.
      countRelevant: chatbot.resourceIds.length === 0 ? undefined : async (question) =>
        (await retrieveChunks(this.db, chatbot.organisationId, chatbot.resourceIds, question, 1)).length,
    });
    const resolved = this.models.resolve(chatbot.model);
    const result = resolved.kind === 'provider'
      ? await analyseWithModel(resolved.languageModel, messages, this.customFields,
        AbortSignal.any([signal, AbortSignal.timeout(MODEL_TIMEOUT_MS)]))
      : analyseLocally(messages, this.customFields, unansweredQuestions, chatbot.restrictAnswersToResourcesContentResponse);
    return { ...result, unansweredQuestions };
  }
}
