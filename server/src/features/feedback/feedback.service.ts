import type { DailyRatings, EmbedFeedbackBody, Feedback, FeedbackListing, RatingCounts, TimeRangeQuery } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { badRequest, notFound } from '../../errors/http-error.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import { resolveListingRange } from '../conversations/listing-range.js';
import { hashVisitorToken } from '../conversations/visitor-token.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { DownRatedAnswer, FeedbackRecord, FeedbackRepository, RatedConversation } from './feedback.repository.js';

function toFeedbackResponse(record: FeedbackRecord, messages: RatedConversation['messages']): Feedback {
  const answer = messages[record.messageIndex];
  return {
    conversationId: record.conversationId, messageIndex: record.messageIndex, rating: record.rating,
    ...(record.comment !== null ? { comment: record.comment } : {}),
    ...(answer && !answer.fromUser ? { answer: answer.text } : {}),
    createdAt: record.createdAt,
  };
}

/** Counts with their 👍 share, omitted when nothing was rated. */
export function toRatingCounts(up: number, down: number): RatingCounts {
  return { up, down, ...(up + down > 0 ? { upShare: up / (up + down) } : {}) };
}

/** The chatbot a caller already resolved within its organisation. */
type OwnedChatbot = Pick<ChatbotRecord, 'id' | 'organisationId'>;

/** Visitors' 👍/👎 on answers (extension): given through the embed API, listed with an API key. */
export class FeedbackService {
  constructor(
    private readonly repository: FeedbackRepository, private readonly chatbots: ChatbotsService,
    /** Tells the organisation (`feedback.created`). */
    private readonly notifications?: Pick<NotificationsService, 'publishSafely'>,
  ) {}

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
    const response = toFeedbackResponse(record, conversation.messages);
    await this.notifications?.publishSafely(chatbot.organisationId, 'feedback.created', { ...response, chatbotId: chatbot.id }, {
      chatbotName: chatbot.name, conversationKey: `feedback:${record.conversationId}`,
    });
    return response;
  }

  /** How many 👍 and 👎 a chatbot's answers got in the inclusive range (for its statistics). */
  counts(chatbotId: string, start: number, end: number): Promise<{ up: number; down: number }> {
    return this.repository.countByChatbot(chatbotId, start, end);
  }

  /** The chatbot's 👍 and 👎 given in the inclusive range, in all and per UTC day, with the 👍 share (for its statistics). */
  async ratings(chatbot: OwnedChatbot, start: number, end: number): Promise<{ feedback: RatingCounts; feedbackDays: DailyRatings[] }> {
    const days = await this.repository.countByDay(chatbot.organisationId, chatbot.id, start, end);
    const up = days.reduce((sum, day) => sum + day.up, 0);
    const down = days.reduce((sum, day) => sum + day.down, 0);
    return { feedback: toRatingCounts(up, down), feedbackDays: days.map((day) => ({ date: day.date, ...toRatingCounts(day.up, day.down) })) };
  }

  /**
   * The chatbot's 👎 answers given in the inclusive range, newest first (at most `limit`), each with
   * the visitor question before it and the visitor's comment: what the knowledge-gap queue feeds on.
   * The caller has already checked that the chatbot is the organisation's.
   */
  listDownRated(chatbot: OwnedChatbot, start: number, end: number, limit = 200): Promise<DownRatedAnswer[]> {
    return this.repository.listDownRated(chatbot.organisationId, chatbot.id, start, end, limit);
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
