import type { Knex } from 'knex';
import type {
  ConversationState, ConversationStatus, HandoffOutcome, InboxPage, InboxQuery, LiveEvent, StoredMessage, TeamMember,
} from '@parley/shared';
import { MAX_CONVERSATION_CHARS, MAX_CONVERSATION_MESSAGES } from '@parley/shared';
import type { LiveEventBus, StoredLiveEvent } from '../../cluster/live-event-bus.js';
import { badRequest, conflict, notFound } from '../../errors/http-error.js';
import type { RequestActor } from '../../http/request-actor.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import type { AnalysisScheduler } from '../conversations/analysis/analysis-scheduler.js';
import { decodePageCursor, DEFAULT_PAGE_SIZE, encodePageCursor } from '../conversations/page-cursor.js';
import { hashVisitorToken } from '../conversations/visitor-token.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { HandoffRecord, HandoffRepository } from './handoff.repository.js';
import { withinOfficeHours } from './office-hours.js';

/** How long after its last sign of life the team still counts as available. */
export const PRESENCE_WINDOW_MS = 5 * 60_000;

/**
 * How long live events are kept for replay (`Last-Event-ID`); older ones are pruned about hourly by
 * each instance. The messages themselves stay in their conversation.
 */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/** How often one instance writes an organisation's presence at most. */
const PRESENCE_WRITE_EVERY_MS = 30_000;

/** The neutral label of a team member without a name. */
function holderLabel(holder: TeamMember | null): string {
  return holder?.name ?? 'another team member';
}

const sameMember = (a: TeamMember | null, b: RequestActor) => (a?.memberId ?? null) === b.memberId;

/**
 * Live handoff (issue 35): who has a conversation (BOT, WAITING, HUMAN, CLOSED), the team's
 * replies, the visitor's messages while the team has it, and the events that carry all of it to
 * the inbox and to the visitor's widget.
 */
export class HandoffService {
  /** When this instance last stored the team's presence, per organisation (one write per half minute is plenty). */
  private readonly presenceWritten = new Map<string, number>();
  private lastPrune = 0;

  constructor(
    private readonly db: Knex,
    private readonly repository: HandoffRepository,
    private readonly bus: LiveEventBus,
    private readonly analysis: AnalysisScheduler,
  ) {}

  /**
   * The visitor asks for a person. When the team is available the conversation becomes WAITING
   * (from BOT; WAITING and HUMAN stay); otherwise it stays as it was and `available` is false.
   * @throws 404 when the conversation is not this visitor's (wrong token) or not this chatbot's.
   */
  async requestFromVisitor(chatbot: ChatbotRecord, conversationId: string, visitorToken: string, now = Date.now()): Promise<HandoffOutcome> {
    const available = await this.isAvailable(chatbot, now);
    const state = await this.change(
      { organisationId: chatbot.organisationId, chatbotId: chatbot.id, id: conversationId, visitorTokenHash: hashVisitorToken(visitorToken) },
      (record) => (available && (record.state === 'BOT' || record.state === 'CLOSED') ? { state: 'WAITING', holder: null } : undefined),
      now,
    );
    return { state: state.state, available };
  }

  /**
   * A visitor's message on a conversation the team has (WAITING or HUMAN): stored at once and sent
   * to the inbox; the bot does not answer. Returns the state, or undefined when the bot answers
   * (BOT, CLOSED, or not this visitor's conversation: the chat then goes on as usual).
   */
  async visitorMessage(chatbot: ChatbotRecord, conversationId: string, visitorToken: string, text: string, now = Date.now()): Promise<'WAITING' | 'HUMAN' | undefined> {
    const result = await this.db.transaction(async (trx) => {
      const record = await this.repository.lock(trx, {
        organisationId: chatbot.organisationId, chatbotId: chatbot.id, id: conversationId, visitorTokenHash: hashVisitorToken(visitorToken),
      });
      if (!record || (record.state !== 'WAITING' && record.state !== 'HUMAN')) return undefined;
      const event = await this.append(trx, record, { text, fromUser: true, sender: { type: 'visitor' }, createdAt: now }, now);
      await this.bus.publish(trx, [event]);
      return record.state;
    });
    if (result) this.analysis.wake();
    return result;
  }

  /**
   * A team member takes the conversation: HUMAN, held by them.
   * @throws 404 (not the organisation's); 409 when CLOSED or held by another member.
   */
  async takeOver(auth: AuthContext, actor: RequestActor, id: string, now = Date.now()): Promise<ConversationStatus> {
    void this.touchPresence(auth.organisationId, now);
    return this.change({ organisationId: auth.organisationId, id }, (record) => {
      this.assertOpen(record);
      this.assertNotHeldByOther(record, actor);
      if (record.state === 'HUMAN') return undefined;
      return { state: 'HUMAN', holder: { memberId: actor.memberId, name: actor.name } };
    }, now);
  }

  /**
   * A team member's reply; it takes the conversation over when nobody has it.
   * @throws 404 (not the organisation's); 409 when CLOSED or held by another member.
   */
  async reply(auth: AuthContext, actor: RequestActor, id: string, text: string, now = Date.now()): Promise<{ index: number; message: StoredMessage }> {
    void this.touchPresence(auth.organisationId, now);
    const result = await this.db.transaction(async (trx) => {
      const record = await this.repository.lock(trx, { organisationId: auth.organisationId, id });
      if (!record) throw notFound(`conversation ${id}`);
      this.assertOpen(record);
      this.assertNotHeldByOther(record, actor);
      const events: StoredLiveEvent[] = [];
      if (record.state !== 'HUMAN') events.push(await this.setState(trx, record, 'HUMAN', { memberId: actor.memberId, name: actor.name }, now));
      const message: StoredMessage = {
        text, fromUser: false, createdAt: now,
        sender: { type: 'member', ...(actor.memberId ? { memberId: actor.memberId } : {}), ...(actor.name ? { name: actor.name } : {}) },
      };
      const index = record.messageCount;
      events.push(await this.append(trx, record, message, now));
      await this.bus.publish(trx, events);
      return { index, message };
    });
    this.analysis.wake();
    return result;
  }

  /**
   * Hands the conversation back to the bot (BOT).
   * @throws 404 (not the organisation's); 409 when CLOSED or held by another member.
   */
  async release(auth: AuthContext, actor: RequestActor, id: string, now = Date.now()): Promise<ConversationStatus> {
    void this.touchPresence(auth.organisationId, now);
    return this.change({ organisationId: auth.organisationId, id }, (record) => {
      this.assertOpen(record);
      this.assertNotHeldByOther(record, actor);
      return record.state === 'BOT' ? undefined : { state: 'BOT', holder: null };
    }, now);
  }

  /**
   * Closes the conversation: no more replies. Idempotent.
   * @throws 404 (not the organisation's); 409 when held by another member.
   */
  async close(auth: AuthContext, actor: RequestActor, id: string, now = Date.now()): Promise<ConversationStatus> {
    void this.touchPresence(auth.organisationId, now);
    return this.change({ organisationId: auth.organisationId, id }, (record) => {
      if (record.state === 'CLOSED') return undefined;
      this.assertNotHeldByOther(record, actor);
      return { state: 'CLOSED', holder: null };
    }, now);
  }

  /** `GET /v1/inbox`: the organisation's conversations, newest activity first, paged. */
  async inbox(auth: AuthContext, query: InboxQuery): Promise<InboxPage> {
    const after = query.cursor !== undefined ? decodePageCursor(query.cursor) : undefined;
    const page = await this.repository.inboxPage(auth.organisationId, query.state ?? [], after, query.limit ?? DEFAULT_PAGE_SIZE);
    return { conversations: page.items, ...(page.hasMore && page.last ? { nextCursor: encodePageCursor(page.last) } : {}) };
  }

  /** The team shows a sign of life (the inbox stream is open, or a member acted). */
  async touchPresence(organisationId: string, now = Date.now()): Promise<void> {
    if (now - (this.presenceWritten.get(organisationId) ?? 0) < PRESENCE_WRITE_EVERY_MS) return;
    this.presenceWritten.set(organisationId, now);
    if (this.presenceWritten.size > 10_000) this.presenceWritten.clear();
    await this.repository.touchPresence(organisationId, now).catch(() => { this.presenceWritten.delete(organisationId); });
  }

  /** Whether someone can answer now: the team was active lately, or it is within the chatbot's office hours. */
  async isAvailable(chatbot: Pick<ChatbotRecord, 'organisationId' | 'websiteIntegration'>, now = Date.now()): Promise<boolean> {
    const officeHours = chatbot.websiteIntegration?.officeHours;
    if (officeHours && withinOfficeHours(officeHours, now)) return true;
    const lastSeen = await this.repository.lastSeen(chatbot.organisationId);
    return lastSeen !== undefined && now - lastSeen <= PRESENCE_WINDOW_MS;
  }

  /** Stored events after `afterId` (a stream's replay). */
  eventsAfter(scope: { conversationId: string } | { organisationId: string }, afterId: number, limit = 500): Promise<StoredLiveEvent[]> {
    return this.repository.eventsAfter(scope, afterId, limit);
  }

  /** The bus the streams listen on. */
  get events(): LiveEventBus {
    return this.bus;
  }

  private assertOpen(record: HandoffRecord): void {
    if (record.state === 'CLOSED') throw conflict(`conversation ${record.id} is closed`);
  }

  private assertNotHeldByOther(record: HandoffRecord, actor: RequestActor): void {
    if (record.state === 'HUMAN' && !sameMember(record.holder, actor)) {
      throw conflict(`conversation ${record.id} is held by ${holderLabel(record.holder)}`);
    }
  }

  /** Changes the state under the conversation's lock when `decide` says so, and publishes it. */
  private async change(
    key: Parameters<HandoffRepository['lock']>[1],
    decide: (record: HandoffRecord) => { state: ConversationState; holder: TeamMember | null } | undefined,
    now: number,
  ): Promise<ConversationStatus> {
    return this.db.transaction(async (trx) => {
      const record = await this.repository.lock(trx, key);
      if (!record) throw notFound(`conversation ${key.id}`);
      const next = decide(record);
      if (!next) return { id: record.id, state: record.state, heldBy: record.holder };
      const event = await this.setState(trx, record, next.state, next.holder, now);
      await this.bus.publish(trx, [event]);
      return { id: record.id, state: next.state, heldBy: next.holder };
    });
  }

  /** Prunes events past their retention, at most hourly per instance, after the caller's work. */
  private pruneSometimes(now: number): void {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    void this.repository.pruneEvents(now - EVENT_RETENTION_MS).catch(() => { this.lastPrune = 0; });
  }

  private async setState(trx: Knex.Transaction, record: HandoffRecord, state: ConversationState, holder: TeamMember | null, now: number): Promise<StoredLiveEvent> {
    this.pruneSometimes(now);
    await this.repository.setState(trx, record.id, state, holder, now);
    const event: LiveEvent = { type: 'state', conversationId: record.id, chatbotId: record.chatbotId, state, heldBy: holder };
    return this.repository.insertEvent(trx, record, event, now);
  }

  /** @throws 400 when the conversation would outgrow its bounds (the same as an API append's). */
  private async append(trx: Knex.Transaction, record: HandoffRecord, message: StoredMessage, now: number): Promise<StoredLiveEvent> {
    if (record.messageCount + 1 > MAX_CONVERSATION_MESSAGES || record.textChars + message.text.length > MAX_CONVERSATION_CHARS) {
      throw badRequest(`the conversation holds at most ${MAX_CONVERSATION_MESSAGES} messages and ${MAX_CONVERSATION_CHARS} characters of text in total`);
    }
    record.textChars += message.text.length;
    await this.repository.appendMessage(trx, record.id, message, now);
    await this.analysis.schedule(record.id, trx);
    const event: LiveEvent = { type: 'message', conversationId: record.id, chatbotId: record.chatbotId, index: record.messageCount, message };
    record.messageCount += 1;
    return this.repository.insertEvent(trx, record, event, now);
  }
}
