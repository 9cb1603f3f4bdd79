import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { JobWorker } from '../../jobs/job-worker.js';
import { Mailer } from './notification-mail.js';
import { NotificationRecipientsRepository } from './notification-recipients.repository.js';
import { NOTIFICATION_MAIL_JOB, NotificationsService, type NotificationMailPayload } from './notifications.service.js';
import { WEBHOOK_DELIVERY_JOB, webhookDeliveryJob, type WebhookDeliveryPayload } from './webhook-delivery.job.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Builds the notifications feature: publishing, the webhook endpoints, and the jobs that send webhooks and mail. */
export function createNotificationsFeature(config: Config, db: Knex, jobs: JobQueue, worker: JobWorker, logger: Logger): {
  notifications: NotificationsService; webhooks: WebhooksService;
} {
  const repository = new WebhooksRepository(db);
  const notifyWorker = () => worker.notify();
  const notifications = new NotificationsService(db, repository, new NotificationRecipientsRepository(db), jobs, config, notifyWorker, logger);
  const webhooks = new WebhooksService(repository, jobs, config.webhooks, notifyWorker);
  worker.register<WebhookDeliveryPayload>(WEBHOOK_DELIVERY_JOB, webhookDeliveryJob({
    repository, jobs, settings: config.webhooks, logger,
    onDisabled: (endpoint, reason) => notifications.tellEndpointDisabled(endpoint.organisationId, endpoint.url, reason),
  }));
  const { mail } = config;
  if (mail) {
    let mailer: Mailer | undefined;
    worker.register<NotificationMailPayload>(NOTIFICATION_MAIL_JOB, {
      async run(payload) {
        mailer ??= new Mailer(mail.smtpUrl, mail.from);
        await mailer.send(payload.to, payload);
      },
      async onGiveUp(payload, error) {
        logger.error({ err: error, organisationId: payload.organisationId }, 'a notification mail could not be sent');
      },
    });
  }
  return { notifications, webhooks };
}
