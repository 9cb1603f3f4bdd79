import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { AuditPage } from '@parley/shared';
import { newId } from '../../db/ids.js';
import { badRequest } from '../../errors/http-error.js';
import type { AuthContext } from '../organisations/organisations.service.js';

/** A change a route made, as its handler left it. */
export interface AuditedChange {
  action: string;
  targetType: string;
  targetId?: string;
  targetName?: string;
}

interface AuditRow {
  id: string; organisation_id: string; actor_member_id: string | null; actor_key_id: string | null; actor_name: string;
  action: string; target_type: string; target_id: string | null; target_name: string | null; created_at: number;
}

const DEFAULT_PAGE = 50;

/** The audit log: who changed chatbots, knowledge, members and keys, and when. */
export class AuditService {
  constructor(private readonly db: Knex, private readonly logger: Logger) {}

  /**
   * Records a change by the caller. A failure is logged, not thrown: the change itself is made and
   * its caller should hear so.
   */
  async record(auth: AuthContext, change: AuditedChange, now = Date.now()): Promise<void> {
    try {
      const keyId = auth.member ? null : auth.keyId;
      const keyName = keyId ? (await this.db('api_keys').where({ id: keyId }).first('name'))?.name as string | undefined : undefined;
      const row: AuditRow = {
        id: newId(now), organisation_id: auth.organisationId, actor_member_id: auth.member?.id ?? null, actor_key_id: keyId,
        actor_name: auth.member?.name ?? `API key "${keyName ?? keyId}"`, action: change.action, target_type: change.targetType,
        target_id: change.targetId ?? null, target_name: change.targetName?.slice(0, 500) ?? null, created_at: now,
      };
      await this.db('audit_events').insert(row);
    } catch (err) {
      this.logger.error({ err, action: change.action }, 'could not record an audit event');
    }
  }

  /**
   * A page of an organisation's events, newest first; `cursor` is the previous page's
   * `nextCursor` (`<createdAt>.<id>` of its last event: ids alone order by the second only).
   */
  async list(organisationId: string, page: { limit?: number; cursor?: string }): Promise<AuditPage> {
    const cursor = page.cursor === undefined ? undefined : /^(\d{1,16})\.([0-9a-f]{24})$/.exec(page.cursor);
    if (cursor === null) throw badRequest('cursor must be a nextCursor of the previous page');
    const limit = page.limit ?? DEFAULT_PAGE;
    const query = this.db<AuditRow>('audit_events').where({ organisation_id: organisationId })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
    if (cursor) {
      const [createdAt, id] = [Number(cursor[1]), cursor[2]!];
      query.where((older) => older.where('created_at', '<', createdAt).orWhere((same) => same.where('created_at', createdAt).where('id', '<', id)));
    }
    const rows = await query;
    const events = rows.slice(0, limit).map((row) => ({
      id: row.id,
      actor: { ...(row.actor_member_id ? { memberId: row.actor_member_id } : {}), name: row.actor_name },
      action: row.action, targetType: row.target_type,
      ...(row.target_id ? { targetId: row.target_id } : {}), ...(row.target_name ? { targetName: row.target_name } : {}),
      createdAt: Number(row.created_at),
    }));
    const last = events.at(-1);
    return { events, ...(rows.length > limit && last ? { nextCursor: `${last.createdAt}.${last.id}` } : {}) };
  }
}
