import type { Knex } from 'knex';
import type { NotificationEventType, NotificationRecipient } from '@parley/shared';

/** Each organisation's notification addresses, and the marks that hold a conversation to one mail per few minutes. */
export class NotificationRecipientsRepository {
  constructor(private readonly db: Knex) {}

  async list(organisationId: string, db: Knex = this.db): Promise<NotificationRecipient[]> {
    const rows = await db('notification_recipients').where({ organisation_id: organisationId }).orderBy('position')
      .select('email', 'events') as { email: string; events: NotificationEventType[] }[];
    return rows.map((row) => ({ email: row.email, events: row.events }));
  }

  async replace(organisationId: string, recipients: readonly NotificationRecipient[]): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('notification_recipients').where({ organisation_id: organisationId }).delete();
      if (recipients.length > 0) {
        await trx('notification_recipients').insert(recipients.map((recipient, position) => ({
          organisation_id: organisationId, email: recipient.email, events: JSON.stringify(recipient.events), position,
        })));
      }
    });
  }

  /**
   * Claims the right to mail about a subject (a conversation) now: true when no mail about it went
   * out in the last `intervalMs`. One statement, so concurrent events about one subject send one mail.
   */
  async claimMail(organisationId: string, subjectKey: string, intervalMs: number, db: Knex = this.db): Promise<boolean> {
    const now = Date.now();
    const result = await db.raw(
      `INSERT INTO notification_mail_marks (organisation_id, subject_key, sent_at) VALUES (?, ?, ?)
       ON CONFLICT (organisation_id, subject_key) DO UPDATE SET sent_at = excluded.sent_at
       WHERE notification_mail_marks.sent_at <= ? RETURNING sent_at`,
      [organisationId, subjectKey, now, now - intervalMs],
    );
    return (result.rows as unknown[]).length > 0;
  }
}
