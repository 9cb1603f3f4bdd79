import type { Logger } from 'pino';
import type { JobHandler } from '../../../jobs/job-worker.js';
import type { ChatbotsRepository } from '../../chatbots/chatbots.repository.js';
import type { ConversationsRepository } from '../conversations.repository.js';
import type { AnalyseConversationPayload } from './analysis-scheduler.js';
import type { ConversationAnalyser } from './conversation-analyser.js';

export interface AnalysisJobDependencies {
  conversations: ConversationsRepository;
  chatbots: ChatbotsRepository;
  analyser: ConversationAnalyser;
  logger: Logger;
}

/**
 * The `analyse-conversation` job: PENDING → IN_PROGRESS → DONE | FAILED for the version of the
 * conversation it read. Every write is conditional on that version (`updated_at`): a save during
 * the analysis makes this run's result obsolete, and the analysis queued by that save wins.
 * A failed attempt goes back to PENDING while retries remain, FAILED after the last one.
 */
export function analyseConversationJob(deps: AnalysisJobDependencies): JobHandler<AnalyseConversationPayload> {
  return {
    async run({ conversationId }, job, signal) {
      const conversation = await deps.conversations.findById(conversationId);
      if (!conversation) return;
      const version = conversation.updatedAt;
      if (!await deps.conversations.setAnalysis(conversationId, version, 'IN_PROGRESS')) return;
      try {
        const chatbot = await deps.chatbots.find(conversation.organisationId, conversation.chatbotId);
        if (!chatbot) return;
        const result = await deps.analyser.analyse(conversation, chatbot, signal);
        const written = await deps.conversations.setAnalysis(conversationId, version, 'DONE', result);
        if (!written) deps.logger.debug({ conversationId }, 'analysis obsolete: the conversation changed meanwhile');
      } catch (err) {
        const final = job.attempts >= job.maxAttempts;
        await deps.conversations.setAnalysis(conversationId, version, final ? 'FAILED' : 'PENDING');
        throw err;
      }
    },
  };
}
