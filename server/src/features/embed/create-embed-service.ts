import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import type { ChatService } from '../chat/chat.service.js';
import type { ChatbotsRepository } from '../chatbots/chatbots.repository.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { FeedbackService } from '../feedback/feedback.service.js';
import type { LeadsService } from '../leads/leads.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { OrganisationsService } from '../organisations/organisations.service.js';
import { EmbedSessionSigner, resolveSessionSecret } from './embed-session.js';
import { EmbedOriginsRepository } from './embed-origins.repository.js';
import { EmbedService } from './embed.service.js';

export interface EmbedDependencies {
  db: Knex;
  config: Config;
  chatbotsRepository: ChatbotsRepository;
  organisations: OrganisationsService;
  chat: ChatService;
  conversations: ConversationsService;
  leads: LeadsService;
  feedback: FeedbackService;
  notifications?: NotificationsService;
}

/** Builds the embed service; the session secret is resolved on first use and then kept. */
export function createEmbedService(deps: EmbedDependencies): EmbedService {
  let secret: Promise<Buffer> | undefined;
  const getSecret = () => {
    secret ??= resolveSessionSecret(deps.db, deps.config.embedSessionSecret);
    // A failed lookup (database briefly down) is retried by the next request.
    secret.catch(() => { secret = undefined; });
    return secret;
  };
  const signer = new EmbedSessionSigner(getSecret, deps.config.embed.sessionTtlMs);
  return new EmbedService(deps.chatbotsRepository, deps.organisations, deps.chat, deps.conversations, deps.leads, deps.feedback, signer, deps.config.publicUrl, deps.config.embed.planSharePercent,
    deps.notifications, new EmbedOriginsRepository(deps.db));
}
