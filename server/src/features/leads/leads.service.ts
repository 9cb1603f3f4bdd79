import { type Lead, type LeadCapture, type LeadListing, type LeadListingQuery, type TimeRangeQuery } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { notFound } from '../../errors/http-error.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import { resolveListingRange } from '../conversations/listing-range.js';
import { decodePageCursor, DEFAULT_PAGE_SIZE, encodePageCursor } from '../conversations/page-cursor.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { toLeadsCsv } from './leads-csv.js';
import type { LeadRecord, LeadsRepository } from './leads.repository.js';

/** A lead as the API returns it: absent contact fields are omitted. */
export function toLeadResponse(record: LeadRecord): Lead {
  return {
    createdAt: record.createdAt,
    ...(record.email !== null ? { email: record.email } : {}),
    ...(record.name !== null ? { name: record.name } : {}),
    ...(record.phone !== null ? { phone: record.phone } : {}),
    ...(record.conversationId !== null ? { conversationId: record.conversationId } : {}),
    ...(record.pageUrl !== null ? { pageUrl: record.pageUrl } : {}),
  };
}

/** Leads: captured from visitors (embed) and listed for the chatbot's organisation. */
export class LeadsService {
  constructor(
    private readonly repository: LeadsRepository, private readonly chatbots: ChatbotsService,
    /** Tells the organisation (`lead.created`); absent in tests of the listing alone. */
    private readonly notifications?: Pick<NotificationsService, 'publishSafely'>,
  ) {}

  /**
   * Stores a visitor's contact details for the chatbot. `lead` must already be validated with
   * `LeadCaptureSchema` (email syntax, phone in international form, an email or a phone); the
   * caller (the public embed endpoint) has checked access level, origin and session.
   * `conversationId`, when given, links the lead to one of the chatbot's conversations.
   * @throws 404 when `conversationId` is not a conversation of this chatbot.
   */
  async capture(chatbot: ChatbotRecord, lead: LeadCapture, conversationId?: string): Promise<Lead> {
    if (conversationId !== undefined && !await this.repository.conversationExists(chatbot.organisationId, chatbot.id, conversationId)) {
      throw notFound(`conversation ${conversationId}`);
    }
    const now = Date.now();
    const record: LeadRecord = {
      id: newId(now), organisationId: chatbot.organisationId, chatbotId: chatbot.id, conversationId: conversationId ?? null,
      createdAt: now, name: lead.name ?? null, email: lead.email ?? null, phone: lead.phone ?? null, pageUrl: lead.pageUrl ?? null,
    };
    await this.repository.insert(record);
    const response = toLeadResponse(record);
    await this.notifications?.publishSafely(chatbot.organisationId, 'lead.created', { ...response, chatbotId: chatbot.id }, { chatbotName: chatbot.name });
    return response;
  }

  /**
   * `GET /v1/lead/{chatbotId}`: the chatbot's leads created in the inclusive range, newest first;
   * with `limit` or `cursor` (extension) one page and `nextCursor` while more follow.
   * @throws 400 for a bad range or cursor; 404 when the chatbot is not the organisation's.
   */
  async list(auth: AuthContext, chatbotId: string, query: LeadListingQuery): Promise<LeadListing> {
    const range = resolveListingRange(query);
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const paged = query.limit !== undefined || query.cursor !== undefined;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = query.cursor !== undefined ? decodePageCursor(query.cursor) : undefined;
    const records = await this.repository.listByChatbot(chatbot.id, range.start, range.end, paged ? { after, limit: limit + 1 } : undefined);
    const page = paged ? records.slice(0, limit) : records;
    const last = page.at(-1);
    return {
      chatbotName: chatbot.name, startInterval: range.startInterval, endInterval: range.endInterval,
      createdAt: new Date(chatbot.createdAt).toISOString(), leads: page.map(toLeadResponse),
      ...(paged && records.length > limit && last ? { nextCursor: encodePageCursor(last) } : {}),
    };
  }

  /**
   * `GET /v1/lead/{chatbotId}/csv`: the range's leads as CSV, newest first.
   * @throws 400 for a bad range; 404 when the chatbot is not the organisation's.
   */
  async exportCsv(auth: AuthContext, chatbotId: string, query: TimeRangeQuery): Promise<{ chatbotName: string; csv: string }> {
    const range = resolveListingRange(query);
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    return { chatbotName: chatbot.name, csv: toLeadsCsv(await this.repository.listByChatbot(chatbot.id, range.start, range.end)) };
  }
}
