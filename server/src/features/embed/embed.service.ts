import type {
  ChatMessage, EmbedChatBody, EmbedConfig, EmbedFeedbackBody, Feedback, EmbedConversation, EmbedConversationSave, EmbedSession, Lead, LeadCapture,
} from '@parley/shared';
import { IdSchema } from '@parley/shared';
import { HttpError, badRequest, forbidden, notFound, usageLimitExceeded } from '../../errors/http-error.js';
import type { PreparedAnswer } from '../chat/chat.service.js';
import type { ChatService } from '../chat/chat.service.js';
import { avatarUrlOf } from '../chatbots/chatbot-response.js';
import { verifyChatbotPassword } from '../chatbots/chatbot-password.js';
import type { ChatbotRecord, ChatbotsRepository } from '../chatbots/chatbots.repository.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { FeedbackService } from '../feedback/feedback.service.js';
import type { LeadsService } from '../leads/leads.service.js';
import { conversationMailKey, type NotificationsService } from '../notifications/notifications.service.js';
import type { OrganisationsService } from '../organisations/organisations.service.js';
import type { EmbedSessionSigner } from './embed-session.js';
import { decideOrigin, type RequestOrigin } from './origin-policy.js';
import type { EmbedOriginsRepository } from './embed-origins.repository.js';

/** A visitor whose origin was accepted: the chatbot and the source its conversations get. */
export interface EmbedVisitor {
  chatbot: ChatbotRecord;
  sourceType: 'website' | 'link';
  /** The request's Origin, echoed by CORS when present. */
  origin?: string;
}

/** A request's `Origin` as a URL origin, when it is one. */
function originOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const url = new URL(header);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The public appearance of a chatbot: never its password, allowedDomains or resource ids. */
export function toEmbedConfig(record: ChatbotRecord, publicUrl: string): EmbedConfig {
  const integration = record.websiteIntegration;
  const avatarUrl = avatarUrlOf(publicUrl, record);
  return {
    id: record.id, name: record.name, welcomeMessage: record.welcomeMessage, accessLevel: record.accessLevel,
    chatbotMessageColor: record.chatbotMessageColor, userMessageColor: record.userMessageColor,
    conversationBackgroundColor: record.conversationBackgroundColor, secondaryBackgroundColor: record.secondaryBackgroundColor,
    ...(record.gradientColors ? { gradientColors: record.gradientColors } : {}),
    showBadge: record.showBadge, enabledEmoji: record.enabledEmoji,
    ...(avatarUrl ? { avatarUrl } : {}),
    bubbleAlignment: integration?.bubbleAlignment ?? 'right',
    bubblePopupMessages: integration?.bubblePopupMessages ?? [],
    ...(integration?.welcomeHeaderTitle ? { welcomeHeaderTitle: integration.welcomeHeaderTitle } : {}),
    ...(integration?.welcomeHeaderSubtitle ? { welcomeHeaderSubtitle: integration.welcomeHeaderSubtitle } : {}),
    ...(integration?.locale ? { locale: integration.locale } : {}),
    ...(integration?.suggestedQuestions?.length ? { suggestedQuestions: integration.suggestedQuestions } : {}),
    ...(integration?.leadOfferAfterTurns ? { leadOfferAfterTurns: integration.leadOfferAfterTurns } : {}),
    ...(integration?.brandColor ? { brandColor: integration.brandColor } : {}),
  };
}

/** @throws 403: PROTECTED chatbots answer only API-key calls (decisions.md § Public embed traffic). */
function assertNotProtected(chatbot: ChatbotRecord): void {
  if (chatbot.accessLevel === 'PROTECTED') throw forbidden('this chatbot is reachable only with an API key');
}

/**
 * The public embed API's rules (decisions.md § Public embed traffic): origin policy, access
 * levels and PRIVATE sessions. The work itself is done by the chat, conversations and leads services.
 */
export class EmbedService {
  private readonly publicOrigin: string;

  constructor(
    private readonly chatbots: ChatbotsRepository,
    private readonly organisations: OrganisationsService,
    private readonly chat: ChatService,
    private readonly conversations: ConversationsService,
    private readonly leads: LeadsService,
    private readonly feedback: FeedbackService,
    private readonly sessions: EmbedSessionSigner,
    private readonly publicUrl: string,
    /** The share (percent) of the organisation's monthly messages visitors may spend (issue 14). */
    private readonly visitorPlanSharePercent = 100,
    /** Tells the team that a visitor asks for a person (`conversation.handoff_requested`). */
    private readonly notifications?: Pick<NotificationsService, 'publishSafely'>,
    /** Where the widget was loaded and which origins were refused (the console's embed check). */
    private readonly origins?: EmbedOriginsRepository,
  ) {
    this.publicOrigin = new URL(publicUrl).origin;
  }

  /**
   * Finds the chatbot and checks the request's origin against its allowed domains.
   * @throws 404 when the chatbot does not exist; 403 when the origin may not embed it.
   */
  async admitVisitor(chatbotId: string, request: RequestOrigin): Promise<EmbedVisitor> {
    const chatbot = await this.chatbots.findPublic(chatbotId);
    if (!chatbot) throw notFound(`chatbot ${chatbotId}`);
    const decision = decideOrigin(request, this.publicOrigin, chatbot.websiteIntegration);
    if (!decision.allowed) {
      const refused = originOf(request.origin);
      if (refused) this.note(chatbot.id, refused, false);
      throw forbidden(decision.reason);
    }
    return { chatbot, sourceType: decision.sourceType, ...(decision.origin ? { origin: decision.origin } : {}) };
  }

  /**
   * Checks the access level: PROTECTED chatbots never answer visitors; PRIVATE ones need a live
   * session (`Authorization: Bearer <token>`) unless `needsSession` is false (config, session).
   * @throws 403 for a PROTECTED chatbot; 401 for a PRIVATE one without a valid session.
   */
  async assertAccess(visitor: EmbedVisitor, authorization: string | undefined, needsSession = true): Promise<void> {
    const { chatbot } = visitor;
    assertNotProtected(chatbot);
    if (chatbot.accessLevel !== 'PRIVATE' || !needsSession) return;
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token || !await this.sessions.verify(token, chatbot.id, chatbot.passwordHash)) {
      throw new HttpError(401, ['a valid visitor session is required: POST /v1/embed/{chatbotId}/session with the password']);
    }
  }

  /**
   * The avatar image. It is public appearance, like the config, and an `<img>` sends no Origin, so
   * no origin check applies; PROTECTED chatbots are never served.
   * @throws 404 for an absent chatbot or avatar; 403 for a PROTECTED chatbot.
   */
  async avatar(chatbotId: string): Promise<{ contentType: string; data: Buffer }> {
    const chatbot = await this.chatbots.findPublic(chatbotId);
    if (!chatbot) throw notFound(`chatbot ${chatbotId}`);
    assertNotProtected(chatbot);
    const avatar = await this.chatbots.findAvatar(chatbot.id);
    if (!avatar) throw notFound(`avatar of chatbot ${chatbot.id}`);
    return avatar;
  }

  /**
   * Notes that a page of another site loaded the widget's settings (the service's own chat link
   * and console preview are not noted).
   */
  noteLoaded(visitor: EmbedVisitor, secFetchSite: string | undefined): void {
    if (!visitor.origin || visitor.sourceType !== 'website' || visitor.origin === this.publicOrigin || secFetchSite === 'same-origin') return;
    this.note(visitor.chatbot.id, visitor.origin, true);
  }

  /** Best effort, off the request's path: a failed write loses one sighting, never a visitor's request. */
  private note(chatbotId: string, origin: string, allowed: boolean): void {
    void this.origins?.record(chatbotId, origin, allowed).catch(() => undefined);
  }

  /** The chatbot's public appearance. */
  config(visitor: EmbedVisitor): EmbedConfig {
    return toEmbedConfig(visitor.chatbot, this.publicUrl);
  }

  /**
   * Exchanges a PRIVATE chatbot's password for a signed, expiring session.
   * @throws 400 when the chatbot is not PRIVATE; 401 when the password is wrong.
   */
  async openSession(visitor: EmbedVisitor, password: string): Promise<EmbedSession> {
    const { chatbot } = visitor;
    if (chatbot.accessLevel !== 'PRIVATE') throw badRequest(`chatbot ${chatbot.id} is ${chatbot.accessLevel}: it has no password sessions`);
    if (!chatbot.passwordHash || !await verifyChatbotPassword(password, chatbot.passwordHash)) {
      throw new HttpError(401, ['the password is wrong']);
    }
    return this.sessions.issue(chatbot.id, chatbot.passwordHash);
  }

  /**
   * Prepares the answer to a visitor; one message of the owner's plan. Visitors may spend only
   * their share of the month's messages, so anonymous traffic never uses up the owner's own API chats.
   * @throws 402 when the visitors' share of the owner's monthly messages is spent.
   */
  async prepareChat(visitor: EmbedVisitor, conversation: ChatMessage[]): Promise<PreparedAnswer> {
    const { chatbot } = visitor;
    const organisation = await this.organisations.findOrganisation(chatbot.organisationId);
    if (!organisation) throw notFound(`chatbot ${chatbot.id}`);
    const plan = this.organisations.planOf(organisation);
    const share = plan.monthlyMessages === undefined ? undefined : Math.floor(plan.monthlyMessages * this.visitorPlanSharePercent / 100);
    try {
      return await this.chat.prepareForChatbot(chatbot.organisationId, { ...plan, monthlyMessages: share }, chatbot, conversation);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 402) throw usageLimitExceeded('this chatbot\'s visitors have used their share of this month\'s messages');
      throw err;
    }
  }

  /**
   * Whether a chat continues a conversation the visitor saved: its id and `visitorToken` match.
   * Anything else (no id, a wrong token, another chatbot's conversation) is a new visitor.
   */
  continuesConversation(visitor: EmbedVisitor, conversationId: unknown, visitorToken: unknown): Promise<boolean> {
    const id = IdSchema.safeParse(conversationId);
    if (!id.success || typeof visitorToken !== 'string' || visitorToken.length === 0 || visitorToken.length > 200) return Promise.resolve(false);
    return this.conversations.isVisitorsConversation(visitor.chatbot, id.data, visitorToken);
  }

  /**
   * Saves the visitor's conversation (source `website`, or `link` from the chat page).
   * @throws 404 when extending a conversation that is not this visitor's.
   */
  saveConversation(visitor: EmbedVisitor, body: EmbedConversationSave): Promise<EmbedConversation> {
    return this.conversations.saveForVisitor(visitor.chatbot, visitor.sourceType, body);
  }

  /**
   * Stores the visitor's contact details as a lead of the chatbot, linked to the conversation and
   * page they were left from (extensions).
   * @throws 404 when `conversationId` is not a conversation of this chatbot.
   */
  captureLead(visitor: EmbedVisitor, lead: LeadCapture): Promise<Lead> {
    return this.leads.capture(visitor.chatbot, lead, lead.conversationId);
  }

  /**
   * A visitor asked for a person (the answer's `handoff`): publishes `conversation.handoff_requested`
   * with the conversation when the chat continues one the visitor saved. Mails about one
   * conversation (or, without one, about the chatbot) go out at most once per few minutes, so a
   * visitor cannot flood the team's inbox; webhooks get every request.
   */
  async handoffRequested(visitor: EmbedVisitor, body: EmbedChatBody): Promise<void> {
    const linked = body.conversationId !== undefined && await this.continuesConversation(visitor, body.conversationId, body.visitorToken);
    const message = [...body.conversation].reverse().find((entry) => entry.fromUser)?.text ?? '';
    await this.tellTeam(visitor, 'conversation.handoff_requested', linked ? body.conversationId : undefined, message);
  }

  /**
   * Tells the team about a conversation the visitor's widget names, already checked against its
   * secret: a "Talk to a person" request (`conversation.handoff_requested`), or a message written
   * while waiting for a person (`conversation.waiting_message`). Mails share the per-conversation limit.
   */
  async tellTeam(
    visitor: EmbedVisitor, type: 'conversation.handoff_requested' | 'conversation.waiting_message', conversationId: string | undefined, message: string,
  ): Promise<void> {
    const { chatbot } = visitor;
    await this.notifications?.publishSafely(chatbot.organisationId, type, {
      chatbotId: chatbot.id, ...(conversationId !== undefined ? { conversationId } : {}), ...(message ? { message: message.slice(0, 2000) } : {}), source: visitor.sourceType,
    }, { chatbotName: chatbot.name, conversationKey: conversationId !== undefined ? conversationMailKey(conversationId) : `chatbot:${chatbot.id}` });
  }

  /**
   * Stores the visitor's 👍/👎 on an answer of their own conversation (extension).
   * @throws 404 when the conversation is not this visitor's; 400 when the index is not an answer.
   */
  giveFeedback(visitor: EmbedVisitor, body: EmbedFeedbackBody): Promise<Feedback> {
    return this.feedback.give(visitor.chatbot, body);
  }
}
