import path from 'node:path';
import express, { type Express } from 'express';
import { ALL_ROUTES } from '@parley/shared';
import { auditTrail } from './features/audit/audit-trail.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { chatbotsRoutes } from './features/chatbots/chatbots.routes.js';
import { embedCheckRoutes } from './features/embed/embed-check.routes.js';
import { EmbedOriginsRepository } from './features/embed/embed-origins.repository.js';
import { conversationsRoutes } from './features/conversations/conversations.routes.js';
import { chatRoutes } from './features/chat/chat.routes.js';
import { consoleAssetsRoutes } from './features/console/console-assets.routes.js';
import { chatLinkRoutes } from './features/embed/chat-link.routes.js';
import { embedAvatarRoutes } from './features/embed/embed-avatar.routes.js';
import { createEmbedRateLimits } from './features/embed/embed-rate-limits.js';
import { embedRoutes } from './features/embed/embed.routes.js';
import { widgetAssetsRoutes } from './features/embed/widget-assets.routes.js';
import { handoffRoutes } from './features/handoff/handoff.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { resourceUpkeepRoutes } from './features/resources/resource-upkeep.routes.js';
import { resourcesRoutes } from './features/resources/resources.routes.js';
import { qaResourcesRoutes } from './features/resources/sources/qa/qa-resources.routes.js';
import { insightsRoutes } from './features/insights/insights.routes.js';
import { knowledgeGapsRoutes } from './features/knowledge-gaps/knowledge-gaps.routes.js';
import { modelsRoutes } from './features/models/models.routes.js';
import { leadsRoutes } from './features/leads/leads.routes.js';
import { feedbackRoutes } from './features/feedback/feedback.routes.js';
import { invitationRoutes, membersRoutes, passwordResetRoutes } from './features/members/members.routes.js';
import { notificationsRoutes } from './features/notifications/notifications.routes.js';
import { sessionOrApiKeyAuth } from './features/sessions/session-auth.js';
import { sessionRoutes, signInRoutes } from './features/sessions/sessions.routes.js';
import { createSignInRateLimits } from './features/sessions/sign-in-rate-limits.js';
import { authOf } from './http/api-key-auth.js';
import { decodePathOnce } from './http/decode-path.js';
import { docsRoutes } from './http/docs.routes.js';
import { errorHandler, notFoundHandler } from './http/error-handler.js';
import { inSeries } from './http/in-series.js';
import { ownPathsOnly, underPath } from './http/own-paths-only.js';
import { createRateLimiter } from './http/rate-limit.js';
import { jsonBodies } from './http/request-body.js';
import { requestDeadline } from './http/request-deadline.js';
import { requestLogging } from './http/request-logging.js';
import { compileRoutes } from './http/route-table.js';
import { securityHeaders } from './http/security-headers.js';
import type { Services } from './services.js';

/**
 * The HTTP application: middleware order and feature routers, no logic. Each feature router sees
 * only the requests under its own paths (own-paths-only.ts).
 */
export function createApp(services: Services): Express {
  const { config, database, logger } = services;
  const uploads = path.join(config.dataDir, 'uploads');
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // One bucket per API key for every endpoint that creates a resource (decisions.md § Resources).
  const resourceCreation = createRateLimiter({
    db: database.db, prefix: 'resource-creation', limit: config.resourceCreationRateLimit, windowMs: 60_000,
    keyOf: (req) => authOf(req).keyId,
  });
  // One layer of Express's chain (in-series.ts): what every request passes through, then the routes.
  app.use(inSeries(
    requestLogging(logger),
    requestDeadline(config.requestTimeouts),
    securityHeaders,
    decodePathOnce(ALL_ROUTES),
    jsonBodies({ limit: '1mb', largePath: '/v1/resource/text', largeLimit: '24mb' }),
    ownPathsOnly(
      healthRoutes(database.db, services.warmUp),
      docsRoutes(config.publicUrl),
      embedAvatarRoutes(services.embed),
      // Public: the embed API, the widget script and the chat link page (decisions.md § Public embed traffic).
      embedRoutes(services.embed, createEmbedRateLimits(database.db, config.embed), {
        heartbeatMs: config.sseHeartbeatMs, logger: logger.child({ component: 'embed' }),
      }, services.handoff),
      widgetAssetsRoutes(config.widgetDir),
      chatLinkRoutes(services.chatbotsRepository, config.widgetDir, config.publicUrl),
      // The owner console's page and files (its API calls are the /v1 routes below, with the session cookie).
      consoleAssetsRoutes(config.consoleDir, config.publicUrl),
      signInRoutes(services.sessions, services.members, config.publicUrl, createSignInRateLimits(database.db, config.consoleSignIn)),
      // Public too: accepting an invitation (its token is the credential), limited like sign-in.
      invitationRoutes(services.members, createSignInRateLimits(database.db, config.consoleSignIn)[0]!),
      // Public as well: forgotten passwords by e-mailed link (mail on), limited like sign-in.
      passwordResetRoutes(services.members, createSignInRateLimits(database.db, config.consoleSignIn)),
    ),
    // Every other /v1 call: an API key, or the owner console's session cookie (with CSRF checks),
    // then the features' routes as one table (route-table.ts).
    underPath('/v1', sessionOrApiKeyAuth(services.organisations, services.sessions, config.publicUrl, (organisationId) => void services.handoff.touchPresence(organisationId))),
    // Successful changes are recorded for the audit log, in one place (mountRoute calls it).
    underPath('/v1', auditTrail(services.audit)),
    compileRoutes(
      sessionRoutes(services.sessions, config.publicUrl),
      membersRoutes(services.members, services.organisations, services.sessions, config.publicUrl),
      auditRoutes(services.audit),
      chatbotsRoutes(services.chatbots, uploads),
      embedCheckRoutes(services.chatbots, new EmbedOriginsRepository(database.db)),
      resourcesRoutes(services.resources, { incomingDirectory: path.join(uploads, 'incoming'), creationRateLimit: resourceCreation }),
      resourceUpkeepRoutes(services.resourceUpkeep),
      qaResourcesRoutes(services.qaResources),
      conversationsRoutes(services.conversations),
      handoffRoutes(services.handoff, { heartbeatMs: config.sseHeartbeatMs }),
      leadsRoutes(services.leads),
      feedbackRoutes(services.feedback),
      notificationsRoutes(services.webhooks, services.notifications, createRateLimiter({
        db: database.db, prefix: 'webhook-test', limit: 10, windowMs: 60_000, keyOf: (req) => authOf(req).keyId,
      })),
      insightsRoutes(services.insights),
      knowledgeGapsRoutes(services.knowledgeGaps, services.savedAnswers, resourceCreation),
      modelsRoutes(services.models),
      chatRoutes(services.chat, { heartbeatMs: config.sseHeartbeatMs, logger: logger.child({ component: 'chat' }) }),
    ),
  ));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
