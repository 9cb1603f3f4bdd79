import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { NotificationEventType, NotificationSettings, NotificationSettingsBody } from '@parley/shared';
import type { Config } from '../../config.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { composeMail, type ComposedMail, type MailSubject } from './notification-mail.js';
import type { NotificationRecipientsRepository } from './notification-recipients.repository.js';
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_JOB_MAX_ATTEMPTS } from './webhook-delivery.job.js';
import type { WebhooksRepository } from './webhooks.repository.js';

/** The job kind that sends one notification mail. */
export const NOTIFICATION_MAIL_JOB = 'notification-mail';

export interface NotificationMailPayload { organisationId: string; to: string[]; subject: string; text: string; html: string }

/** A conversation gets at most one mail per this long (a visitor typing ten messages while waiting is one mail). */
export const MAIL_INTERVAL_PER_CONVERSATION_MS = 5 * 60_000;

/**
 * The mail limit's key of a conversation: `conversation.handoff_requested` and
 * `conversation.waiting_message` of one conversation share it, so a visitor who asked for a person
 * and keeps writing makes one mail per few minutes.
 */
export const conversationMailKey = (conversationId: string) => `conversation:${conversationId}`;

export interface PublishOptions {
  /** Run inside the caller's transaction: the event is queued exactly when its cause is committed. */
  db?: Knex;
  /** The conversation the event is about: its mails are limited to one per few minutes. */
  conversationKey?: string;
  /** Shown in the mail's subject. */
  chatbotName?: string;
}

/**
 * Tells an organisation what happened: queues a signed webhook message for each subscribed endpoint
 * and a mail to each subscribed notification address. Publishing only queues (a few inserts);
 * sending happens in the job worker, so the request that caused the event is not slowed by it.
 */
export class NotificationsService {
  constructor(
    private readonly db: Knex,
    private readonly webhooks: WebhooksRepository,
    private readonly recipients: NotificationRecipientsRepository,
    private readonly jobs: JobQueue,
    private readonly config: Pick<Config, 'mail' | 'publicUrl'>,
    private readonly notifyWorker: () => void,
    private readonly logger: Logger,
  ) {}

  /**
   * Publishes an event of an organisation. `data` is the object the API returns for it.
   * @throws when the database fails (callers that must not fail log it: see `publishSafely`).
   */
  async publish(organisationId: string, type: NotificationEventType, data: Record<string, unknown>, options: PublishOptions = {}): Promise<void> {
    const db = options.db ?? this.db;
    const now = Date.now();
    const body = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
    const endpoints = await this.webhooks.queueEvent({ organisationId, type, body, now, jobKind: WEBHOOK_DELIVERY_JOB, maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS }, db);
    const mailed = await this.queueMail(db, organisationId, { type, data, ...(options.chatbotName ? { chatbotName: options.chatbotName } : {}) }, options.conversationKey);
    if (endpoints > 0 || mailed) this.notifyWorker();
  }

  /** `publish`, logging instead of throwing: for events whose cause is already stored and answered. */
  async publishSafely(organisationId: string, type: NotificationEventType, data: Record<string, unknown>, options: PublishOptions = {}): Promise<void> {
    await this.publish(organisationId, type, data, options)
      .catch((err: unknown) => this.logger.error({ err, organisationId, type }, 'a notification could not be queued'));
  }

  /** Mails every notification address of the organisation that an endpoint was disabled (whatever their events). */
  async tellEndpointDisabled(organisationId: string, url: string, reason: string): Promise<void> {
    await this.queueMail(this.db, organisationId, { type: 'webhook.disabled', data: { url, reason } });
    this.notifyWorker();
  }

  private async queueMail(db: Knex, organisationId: string, subject: MailSubject, conversationKey?: string): Promise<boolean> {
    if (!this.config.mail) return false;
    const all = await this.recipients.list(organisationId, db);
    const to = all.filter((recipient) => subject.type === 'webhook.disabled' || recipient.events.includes(subject.type)).map((recipient) => recipient.email);
    if (to.length === 0) return false;
    if (conversationKey && !await this.recipients.claimMail(organisationId, conversationKey, MAIL_INTERVAL_PER_CONVERSATION_MS, db)) return false;
    const mail = composeMail(subject, this.config.publicUrl);
    const payload: NotificationMailPayload = { organisationId, to, ...mail };
    await this.jobs.enqueue(NOTIFICATION_MAIL_JOB, payload, { maxAttempts: 8 }, db);
    return true;
  }

  /** Whether mail is on (`SMTP_URL`). */
  get mailEnabled(): boolean {
    return this.config.mail !== undefined;
  }

  /**
   * Queues one mail to given addresses (an invitation, a password reset) through the same job and
   * mailer as the notification mails. Returns false, queuing nothing, when mail is off.
   */
  async sendMail(organisationId: string, to: string[], mail: ComposedMail, db: Knex = this.db): Promise<boolean> {
    if (!this.config.mail) return false;
    const payload: NotificationMailPayload = { organisationId, to, ...mail };
    await this.jobs.enqueue(NOTIFICATION_MAIL_JOB, payload, { maxAttempts: 8 }, db);
    this.notifyWorker();
    return true;
  }

  /** `GET /v1/notification/settings`. */
  async settings(auth: AuthContext): Promise<NotificationSettings> {
    const recipients = await this.recipients.list(auth.organisationId);
    return {
      recipients, mailEnabled: this.config.mail !== undefined,
      ...(this.config.mail ? {} : { mailHint: 'Mail is off: the operator sets SMTP_URL (and MAIL_FROM) in the service\'s environment and restarts it. Webhooks work without it.' }),
    };
  }

  /** `PUT /v1/notification/settings`: replaces the organisation's notification addresses. */
  async updateSettings(auth: AuthContext, body: NotificationSettingsBody): Promise<NotificationSettings> {
    await this.recipients.replace(auth.organisationId, body.recipients);
    return this.settings(auth);
  }
}
