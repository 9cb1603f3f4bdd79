import type { Knex } from 'knex';
import type { ConversationState, InboxItem, LiveEvent, StoredMessage, TeamMember } from '@parley/shared';
import type { StoredLiveEvent } from '../../cluster/live-event-bus.js';
import type { PagePosition } from '../conversations/page-cursor.js';

/** What a state change needs to know of a conversation, read under its lock. */
export interface HandoffRecord {
  id: string;
  organisationId: string;
  chatbotId: string;
  state: ConversationState;
  holder: TeamMember | null;
  messageCount: number;
  /** Characters of message text stored, all messages together (the conversation's bound). */
  textChars: number;
}

type Row = Record<string, unknown>;

function holderOf(row: Row): TeamMember | null {
  return row.state === 'HUMAN' ? { memberId: (row.holder_member_id as string | null) ?? null, name: (row.holder_name as string | null) ?? null } : null;
}

/** Conversation states, live messages, their events, and when the team was last seen. */
export class HandoffRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Locks the conversation for a change. Events of one organisation are written one transaction
   * at a time (an advisory lock), so their numbers grow in commit order: a stream that resumes
   * after event N misses none that commit later with a smaller number.
   */
  async lock(trx: Knex.Transaction, key: { organisationId: string; id: string; chatbotId?: string; visitorTokenHash?: string }): Promise<HandoffRecord | undefined> {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`live:${key.organisationId}`]);
    const query = trx('conversations').where({ id: key.id, organisation_id: key.organisationId });
    if (key.chatbotId !== undefined) query.where('chatbot_id', key.chatbotId);
    if (key.visitorTokenHash !== undefined) query.where('visitor_token_hash', key.visitorTokenHash);
    const row: Row | undefined = await query.forUpdate()
      .first('id', 'organisation_id', 'chatbot_id', 'state', 'holder_member_id', 'holder_name', trx.raw('jsonb_array_length(messages) AS message_count'),
        trx.raw("(SELECT coalesce(sum(length(m->>'text')), 0) FROM jsonb_array_elements(messages) m) AS text_chars"));
    if (!row) return undefined;
    return {
      id: row.id as string, organisationId: row.organisation_id as string, chatbotId: row.chatbot_id as string,
      state: row.state as ConversationState, holder: holderOf(row), messageCount: Number(row.message_count), textChars: Number(row.text_chars),
    };
  }

  async setState(trx: Knex.Transaction, id: string, state: ConversationState, holder: TeamMember | null, now: number): Promise<void> {
    await trx('conversations').where({ id }).update({
      state, state_changed_at: now, last_activity_at: now,
      holder_member_id: holder?.memberId ?? null, holder_name: holder?.name ?? null,
    });
  }

  /** Appends one message; the analysis is set back to PENDING like any save. */
  async appendMessage(trx: Knex.Transaction, id: string, message: StoredMessage, now: number): Promise<void> {
    await trx('conversations').where({ id }).update({
      messages: trx.raw('messages || ?::jsonb', [JSON.stringify([message])]),
      updated_at: trx.raw('greatest(updated_at + 1, ?::bigint)', [now]),
      last_activity_at: now,
      analysis_status: 'PENDING',
    });
  }

  async insertEvent(trx: Knex.Transaction, record: HandoffRecord, event: LiveEvent, now: number): Promise<StoredLiveEvent> {
    const [row] = await trx('conversation_events').insert({
      organisation_id: record.organisationId, chatbot_id: record.chatbotId, conversation_id: record.id,
      type: event.type, payload: JSON.stringify(event), created_at: now,
    }).returning('id');
    return { id: Number((row as Row).id), organisationId: record.organisationId, conversationId: record.id, event };
  }

  /** Stored events after `afterId`, oldest first, of one conversation (visitor) or one organisation (inbox). */
  async eventsAfter(scope: { conversationId: string } | { organisationId: string }, afterId: number, limit: number): Promise<StoredLiveEvent[]> {
    const query = this.db('conversation_events').where('id', '>', afterId).orderBy('id').limit(limit);
    if ('conversationId' in scope) query.where('conversation_id', scope.conversationId);
    else query.where('organisation_id', scope.organisationId);
    const rows: Row[] = await query.select('id', 'organisation_id', 'conversation_id', 'payload');
    return rows.map((row) => ({
      id: Number(row.id), organisationId: row.organisation_id as string, conversationId: row.conversation_id as string,
      event: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as LiveEvent,
    }));
  }

  /** The organisation's conversations, newest activity first, after `after`. */
  async inboxPage(organisationId: string, states: readonly ConversationState[], after: PagePosition | undefined, limit: number): Promise<{ items: InboxItem[]; last?: PagePosition; hasMore: boolean }> {
    const query = this.db('conversations as c').join('chatbots as b', 'b.id', 'c.chatbot_id').where('c.organisation_id', organisationId);
    if (states.length > 0) query.whereIn('c.state', [...states]);
    if (after) query.whereRaw('(c.last_activity_at, c.id) < (?, ?)', [after.createdAt, after.id]);
    const rows: Row[] = await query
      .orderBy([{ column: 'c.last_activity_at', order: 'desc' }, { column: 'c.id', order: 'desc' }])
      .limit(limit + 1)
      .select('c.id', 'c.chatbot_id', 'b.name as chatbot_name', 'c.state', 'c.created_at', 'c.last_activity_at', 'c.state_changed_at',
        'c.holder_member_id', 'c.holder_name', 'c.source', 'c.messages');
    const page = rows.slice(0, limit);
    const items = page.map((row): InboxItem => ({
      id: row.id as string, chatbotId: row.chatbot_id as string, chatbotName: row.chatbot_name as string,
      state: row.state as ConversationState, createdAt: Number(row.created_at), lastActivityAt: Number(row.last_activity_at ?? row.created_at),
      stateChangedAt: row.state_changed_at === null ? null : Number(row.state_changed_at), heldBy: holderOf(row),
      source: row.source as InboxItem['source'], messages: row.messages as StoredMessage[],
    }));
    const last = items.at(-1);
    return { items, last: last && { createdAt: last.lastActivityAt, id: last.id }, hasMore: rows.length > page.length };
  }

  /** Deletes events stored before `before`; returns how many. */
  async pruneEvents(before: number): Promise<number> {
    return this.db('conversation_events').where('created_at', '<', before).delete();
  }

  async touchPresence(organisationId: string, now: number): Promise<void> {
    await this.db('team_presence').insert({ organisation_id: organisationId, last_seen_at: now })
      .onConflict('organisation_id').merge({ last_seen_at: this.db.raw('greatest(team_presence.last_seen_at, excluded.last_seen_at)') });
  }

  async lastSeen(organisationId: string): Promise<number | undefined> {
    const row = await this.db('team_presence').where({ organisation_id: organisationId }).first('last_seen_at');
    return row ? Number(row.last_seen_at) : undefined;
  }
}
