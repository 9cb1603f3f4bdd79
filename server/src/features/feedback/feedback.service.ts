import type { EmbedFeedbackBody, Feedback, FeedbackListing, TimeRangeQuery } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { badRequest, notFound } from '../../errors/http-error.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import { resolveListingRange } from '../conversations/listing-range.js';
import { hashVisitorToken } from '../conversations/visitor-token.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { FeedbackRecord, FeedbackRepository, RatedConversation } from './feedback.repository.js';

function toFeedbackResponse(record: FeedbackRecord, messages: RatedConversation['messages']): Feedback {
  const answer = messages[record.messageIndex];
  return {
    conversationId: record.conversationId, messageIndex: record.messageIndex, rating: record.rating,
    ...(record.comment !== null ? { comment: record.comment } : {}),
    ...(answer && !answer.fromUser ? { answer: answer.text } : {}),
    createdAt: record.createdAt,
  };
}

/** Visitors' 👍/👎 on answers (extension): given through the embed API, listed with an API key. */
export class FeedbackService {
  constructor(private readonly repository: FeedbackRepository, private readonly chatbots: ChatbotsService) {}

  /**
   * Stores a visitor's verdict on an answer of their own conversation (proven by its visitor token).
   * @throws 404 when the conversation is not this chatbot's or the token does not match;
   *   400 when `messageIndex` is not one of the chatbot's answers in it.
   */
  async give(chatbot: ChatbotRecord, body: EmbedFeedbackBody): Promise<Feedback> {
    const conversation = await this.repository.findConversation(chatbot.id, body.conversationId);
    if (!conversation || conversation.visitorTokenHash !== hashVisitorToken(body.visitorToken)) {
      throw notFound(`conversation ${body.conversationId}`);
    }
    const message = conversation.messages[body.messageIndex];
    if (!message || message.fromUser) throw badRequest(`messageIndex must point at an answer of the chatbot (message ${body.messageIndex} is not one)`);
    const now = Date.now();
    const record: FeedbackRecord = {
      id: newId(now), organisationId: chatbot.organisationId, chatbotId: chatbot.id, conversationId: body.conversationId,
      messageIndex: body.messageIndex, rating: body.rating, comment: body.comment || null, createdAt: now,
    };
    await this.repository.upsert(record);
    return toFeedbackResponse(record, conversation.messages);
  }

  /** How many 👍 and 👎 a chatbot's answers got in the inclusive range (for its statistics). */
  counts(chatbotId: string, start: number, end: number): Promise<{ up: number; down: number }> {
    return this.repository.countByChatbot(chatbotId, start, end);
  }

  /**
   * `GET /v1/feedback/{id}`: the chatbot's verdicts in the inclusive range, newest first, and their counts.
   * @throws 400 for a bad range; 404 when the chatbot is not the organisation's.
   */
  async list(auth: AuthContext, chatbotId: string, query: TimeRangeQuery): Promise<FeedbackListing> {
    const range = resolveListingRange(query);
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const [records, totals] = await Promise.all([
      this.repository.listByChatbot(chatbot.id, range.start, range.end), this.counts(chatbot.id, range.start, range.end),
    ]);
    return {
      chatbotName: chatbot.name, startInterval: range.startInterval, endInterval: range.endInterval, totals,
      feedback: records.map((record) => toFeedbackResponse(record, record.messages)),
    };
  }
}
