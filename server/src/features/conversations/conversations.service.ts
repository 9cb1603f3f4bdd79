import type { Knex } from 'knex';
import {
  MAX_CONVERSATION_CHARS, MAX_CONVERSATION_MESSAGES, type ChatMessage, type Conversation, type ConversationListing,
  type ConversationListingQuery, type ConversationSave, type ConversationSource, type EmbedConversation, type StoredMessage,
} from '@parley/shared';
import { newId } from '../../db/ids.js';
import { badRequest, notFound } from '../../errors/http-error.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { AnalysisScheduler } from './analysis/analysis-scheduler.js';
import { toConversationResponse } from './conversation-response.js';
import type { ConversationKey, ConversationRecord, ConversationsRepository } from './conversations.repository.js';
import { resolveListingRange } from './listing-range.js';
import { decodePageCursor, DEFAULT_PAGE_SIZE, encodePageCursor } from './page-cursor.js';
import { generateVisitorToken, hashVisitorToken } from './visitor-token.js';

/** Where a visitor's conversation comes from: the embedded widget or the chat link page. */
export type VisitorSourceType = 'website' | 'link';

/** A visitor's save (the embed endpoint's body, already validated). */
export interface VisitorConversationSave {
  messages: ChatMessage[];
  conversationId?: string;
  /** The secret returned when the conversation was created; required to extend it. */
  visitorToken?: string;
  override: boolean;
}

interface NewConversation { source: ConversationSource; userId: string | null; visitorTokenHash: string | null }

/**
 * Who sent each message (issue 35): a message that stays where it was keeps its sender (a team
 * member's reply survives a client saving the whole conversation again); others are the visitor's
 * (`fromUser`) or the bot's.
 */
export function withSenders(messages: readonly ChatMessage[], previous: readonly StoredMessage[] = []): StoredMessage[] {
  return messages.map((message, i) => {
    const before = previous[i];
    if (before?.sender && before.text === message.text && before.fromUser === message.fromUser) {
      return { ...message, sender: before.sender, ...(before.createdAt !== undefined ? { createdAt: before.createdAt } : {}) };
    }
    return { ...message, sender: { type: message.fromUser ? 'visitor' : 'bot' } };
  });
}

/**
 * Conversations: saves from the API and from visitors (embed), the listing, and scheduling of
 * their analysis after every save. Every save is followed by a (deduplicated) analysis job.
 */
export class ConversationsService {
  constructor(
    private readonly db: Knex,
    private readonly repository: ConversationsRepository,
    private readonly chatbots: ChatbotsService,
    private readonly analysis: AnalysisScheduler,
  ) {}

  /**
   * `POST /v1/conversation`: creates (no `conversationId`; source `app`, `user` the key's user),
   * replaces (`override: true`) or appends (`override: false`) (decisions.md § Conversations and leads).
   * Source and user of an existing conversation stay as they were.
   * @throws 404 when the chatbot is not the organisation's or the conversation not the chatbot's;
   * 400 when appending would exceed the message or text limit.
   */
  async save(auth: AuthContext, body: ConversationSave): Promise<Conversation> {
    const chatbot = await this.chatbots.getRecord(auth, body.chatbotId);
    const record = body.conversationId
      ? await this.update({ organisationId: auth.organisationId, chatbotId: chatbot.id, id: body.conversationId }, body.messages, body.override)
      : await this.create(chatbot, body.messages, { source: { type: 'app' }, userId: auth.userId, visitorTokenHash: null });
    return toConversationResponse(record);
  }

  /**
   * A visitor's save through the public embed endpoints (the caller has already checked access
   * level, origin and session). Without `conversationId` it creates a conversation of source
   * `website` or `link`, with no user, and returns a new secret `visitorToken`; only its SHA-256
   * is stored. Extending a conversation needs that token: a missing or wrong token is a **404**,
   * exactly like an absent conversation, so a visitor cannot even learn that another visitor's
   * conversation exists. API-saved conversations (no token) can never be extended this way.
   * @throws 404 for an absent conversation, one of another chatbot, or a missing or wrong token;
   * 400 when appending would exceed the message or text limit.
   */
  /** Whether a visitor's saved conversation of this chatbot exists and the token is its own. */
  async isVisitorsConversation(chatbot: Pick<ChatbotRecord, 'id' | 'organisationId'>, conversationId: string, visitorToken: string): Promise<boolean> {
    return this.repository.exists({
      organisationId: chatbot.organisationId, chatbotId: chatbot.id, id: conversationId, visitorTokenHash: hashVisitorToken(visitorToken),
    });
  }

  async saveForVisitor(chatbot: ChatbotRecord, sourceType: VisitorSourceType, body: VisitorConversationSave): Promise<EmbedConversation> {
    if (body.conversationId !== undefined) {
      if (!body.visitorToken) throw notFound(`conversation ${body.conversationId}`);
      const key = {
        organisationId: chatbot.organisationId, chatbotId: chatbot.id, id: body.conversationId,
        visitorTokenHash: hashVisitorToken(body.visitorToken),
      };
      const record = await this.update(key, body.messages, body.override, true);
      return { ...toConversationResponse(record), visitorToken: body.visitorToken };
    }
    const visitorToken = generateVisitorToken();
    const record = await this.create(chatbot, body.messages, {
      source: { type: sourceType }, userId: null, visitorTokenHash: hashVisitorToken(visitorToken),
    });
    return { ...toConversationResponse(record), visitorToken };
  }

  /**
   * `GET /v1/conversation/{chatbotId}`: conversations created in the inclusive range, newest
   * first, with their analysis; `sources` empty or absent means every source. Returns the
   * `ConversationListing` already serialised: the conversations come from the database as JSON
   * text (see {@link ConversationsRepository.listItemsJson}). While a changed conversation is
   * re-analysed, `analysis.result` still holds its previous analysis. With `limit` or `cursor`
   * (extension) it answers one page and `nextCursor`; `search` keeps conversations whose messages
   * contain the text, `rating` those where the visitor rated an answer so. Items carry the visitor's
   * verdicts (`feedback`) when there are some.
   * @throws 400 for a bad range or cursor; 404 when the chatbot is not the organisation's.
   */
  async listJson(auth: AuthContext, chatbotId: string, query: ConversationListingQuery): Promise<string> {
    const range = resolveListingRange(query);
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const header: Omit<ConversationListing, 'conversations'> = {
      chatbotName: chatbot.name, startInterval: range.startInterval, endInterval: range.endInterval,
      createdAt: new Date(chatbot.createdAt).toISOString(),
    };
    const paged = query.limit !== undefined || query.cursor !== undefined;
    if (!paged && query.search === undefined && query.rating === undefined && !query.state?.length) {
      const items = await this.repository.listItemsJson(chatbot.id, range.start, range.end, query.sources ?? []);
      return `${JSON.stringify(header).slice(0, -1)},"conversations":${items}}`;
    }
    const page = await this.repository.listPageJson(chatbot.id, range, {
      sources: query.sources ?? [], search: query.search, rating: query.rating, states: query.state ?? [],
      after: query.cursor !== undefined ? decodePageCursor(query.cursor) : undefined,
      limit: paged ? query.limit ?? DEFAULT_PAGE_SIZE : undefined,
    });
    const next = page.hasMore && page.last ? `,"nextCursor":${JSON.stringify(encodePageCursor(page.last))}` : '';
    return `${JSON.stringify(header).slice(0, -1)},"conversations":${page.items}${next}}`;
  }

  private async create(chatbot: ChatbotRecord, messages: ChatMessage[], origin: NewConversation): Promise<ConversationRecord> {
    const now = Date.now();
    const record: ConversationRecord = {
      id: newId(now), organisationId: chatbot.organisationId, chatbotId: chatbot.id, userId: origin.userId,
      createdAt: now, updatedAt: now, messages: withSenders(messages), source: origin.source, visitorTokenHash: origin.visitorTokenHash,
      state: 'BOT', analysisStatus: 'PENDING', analysisResult: null,
    };
    await this.db.transaction(async (trx) => {
      await this.repository.insert(record, trx);
      await this.analysis.schedule(record.id, trx);
    });
    this.analysis.wake();
    return record;
  }

  /**
   * `byVisitor`: while the team has the conversation (WAITING, HUMAN) the service holds its messages
   * (the visitor's arrive through the chat, the team's through replies), so a visitor's save leaves
   * them as they are instead of racing a reply.
   */
  private async update(key: ConversationKey, messages: ChatMessage[], override: boolean, byVisitor = false): Promise<ConversationRecord> {
    const outcome = await this.db.transaction(async (trx) => {
      const limits = { messages: MAX_CONVERSATION_MESSAGES, chars: MAX_CONVERSATION_CHARS };
      const current = override || byVisitor ? await this.repository.find(key, trx) : undefined;
      if (current && byVisitor && (current.state === 'WAITING' || current.state === 'HUMAN')) return { kind: 'held' as const, record: current };
      const stored = override ? withSenders(messages, current?.messages) : withSenders(messages);
      const result = await this.repository.updateMessages(key, stored, override, limits, Date.now(), trx);
      if (result.kind === 'saved') await this.analysis.schedule(key.id, trx);
      return result;
    });
    if (outcome.kind === 'absent') throw notFound(`conversation ${key.id}`);
    if (outcome.kind === 'held') return outcome.record;
    if (outcome.kind === 'too-long') {
      throw badRequest(`messages must contain at most ${MAX_CONVERSATION_MESSAGES} messages and ${MAX_CONVERSATION_CHARS} characters of text in total after appending`);
    }
    this.analysis.wake();
    return outcome.record;
  }
}
