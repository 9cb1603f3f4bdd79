import type { ChatbotStats, TimeRangeQuery } from '@parley/shared';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import type { FeedbackService } from '../feedback/feedback.service.js';
import { resolveListingRange } from '../conversations/listing-range.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { summariseConversations } from './chatbot-stats.js';
import type { InsightsRepository } from './insights.repository.js';

/** Per-chatbot statistics for the owner console's insights (extension). */
export class InsightsService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly chatbots: ChatbotsService,
    private readonly feedback: Pick<FeedbackService, 'ratings'>,
  ) {}

  /**
   * `GET /v1/chatbot/{id}/stats`: the chatbot's conversations created in the inclusive range, summed up,
   * and the visitors' 👍/👎 given in it (in all and per UTC day, with the 👍 share).
   * @throws 400 for a bad range; 404 when the chatbot is not the organisation's.
   */
  async chatbotStats(auth: AuthContext, chatbotId: string, query: TimeRangeQuery): Promise<ChatbotStats> {
    const range = resolveListingRange(query);
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const [facts, ratings] = await Promise.all([
      this.repository.conversationFacts(chatbot.id, range.start, range.end), this.feedback.ratings(chatbot, range.start, range.end),
    ]);
    return {
      chatbotName: chatbot.name, startInterval: range.startInterval, endInterval: range.endInterval, ...summariseConversations(facts), ...ratings,
    };
  }
}
