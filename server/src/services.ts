import type { Logger } from 'pino';
import { FairAdmission } from './admission/fair-admission.js';
import type { Config } from './config.js';
import type { Database } from './db/knex.js';
import { ChatbotsRepository } from './features/chatbots/chatbots.repository.js';
import { ChatbotsService } from './features/chatbots/chatbots.service.js';
import { analyseConversationJob } from './features/conversations/analysis/analyse-conversation.job.js';
import { ANALYSE_CONVERSATION, AnalysisScheduler } from './features/conversations/analysis/analysis-scheduler.js';
import { ConversationAnalyser } from './features/conversations/analysis/conversation-analyser.js';
import { ConversationsRepository } from './features/conversations/conversations.repository.js';
import { ConversationsService } from './features/conversations/conversations.service.js';
import { InsightsRepository } from './features/insights/insights.repository.js';
import { InsightsService } from './features/insights/insights.service.js';
import { KnowledgeGapsRepository } from './features/knowledge-gaps/knowledge-gaps.repository.js';
import { KnowledgeGapsService } from './features/knowledge-gaps/knowledge-gaps.service.js';
import { SavedAnswersService } from './features/knowledge-gaps/saved-answers.service.js';
import { LeadsRepository } from './features/leads/leads.repository.js';
import { LeadsService } from './features/leads/leads.service.js';
import { FeedbackRepository } from './features/feedback/feedback.repository.js';
import { FeedbackService } from './features/feedback/feedback.service.js';
import { createNotificationsFeature } from './features/notifications/create-notifications.js';
import type { NotificationsService } from './features/notifications/notifications.service.js';
import type { WebhooksService } from './features/notifications/webhooks.service.js';
import { ChatService } from './features/chat/chat.service.js';
import { inProcessBus, postgresBus } from './cluster/live-event-bus.js';
import { HandoffRepository } from './features/handoff/handoff.repository.js';
import { HandoffService } from './features/handoff/handoff.service.js';
import { createEmbedService } from './features/embed/create-embed-service.js';
import type { EmbedService } from './features/embed/embed.service.js';
import { AuditService } from './features/audit/audit.service.js';
import { MembersService } from './features/members/members.service.js';
import { OrganisationsService } from './features/organisations/organisations.service.js';
import { createResourcesFeature } from './features/resources/create-resources.js';
import { ChunkTermCache } from './features/resources/chunk-term-cache.js';
import { toResourceResponse } from './features/resources/resource-response.js';
import { WarmUp } from './features/health/warm-up.js';
import { SessionsService } from './features/sessions/sessions.service.js';
import type { SyncScheduler } from './features/resources/ingestion/ingestion-worker.js';
import type { CrawlClock } from './features/resources/ingestion/stages/polite-fetcher.js';
import type { ResourceUpkeepService } from './features/resources/resource-upkeep.service.js';
import type { QaResourcesService } from './features/resources/sources/qa/qa-resources.service.js';
import type { ResourcesService } from './features/resources/resources.service.js';
import { UsageRepository } from './features/usage/usage.repository.js';
import { UsageService } from './features/usage/usage.service.js';
import { JobQueue } from './jobs/job-queue.js';
import { JobWorker } from './jobs/job-worker.js';
import { ModelRegistry } from './providers/llm/model-registry.js';
import { localEmbedder, WorkerSentenceEncoder } from './providers/llm/local/sentence-encoder.js';
import { loadEnglishWords } from './providers/llm/local/spelling.js';

/** Everything the routes and workers use, built once per process. */
export interface Services {
  config: Config;
  database: Database;
  logger: Logger;
  jobs: JobQueue;
  worker: JobWorker;
  organisations: OrganisationsService;
  chatbots: ChatbotsService;
  chatbotsRepository: ChatbotsRepository;
  resources: ResourcesService;
  /** Edit text, sync now, passages (extensions). */
  resourceUpkeep: ResourceUpkeepService;
  /** Saved answers: the pairs of QA resources (extension). */
  qaResources: QaResourcesService;
  /** Queues website re-syncs when due; started with the workers. */
  resourceSync: SyncScheduler;
  /** Queues the sentence vectors of chunks indexed without them; absent when no local engine answers. */
  queueMissingSentenceVectors?: () => Promise<number>;
  /** What the instance loads after it starts (the encoder, term indexes); `GET /health/ready` waits for it. */
  warmUp: WarmUp;
  conversations: ConversationsService;
  leads: LeadsService;
  feedback: FeedbackService;
  /** Per-chatbot statistics (extension). */
  insights: InsightsService;
  /** Knowledge gaps grouped, dismissed and answered (extension). */
  knowledgeGaps: KnowledgeGapsService;
  /** "Answer it": saved answers per chatbot (extension). */
  savedAnswers: SavedAnswersService;
  usage: UsageService;
  models: ModelRegistry;
  chat: ChatService;
  /** Bounds concurrent answer preparation, fairly across organisations and chatbots. */
  admission: FairAdmission;
  embed: EmbedService;
  /** Owner console sessions (cookie sign-in). */
  sessions: SessionsService;
  /** Team accounts: members, invitations (extension). */
  members: MembersService;
  /** Who changed what (extension). */
  audit: AuditService;
  /** Tells organisations about events by webhook and mail (extension): `publish` only queues. */
  notifications: NotificationsService;
  /** `/v1/webhook` endpoints (extension). */
  webhooks: WebhooksService;
  /** Live handoff: conversation states, team replies and their event streams (issue 35). */
  handoff: HandoffService;
}

export interface ServiceOptions {
  /** Idle poll interval of the job worker (tests use a short one). */
  jobPollIntervalMs?: number;
  /** Job lease length (tests of restart recovery use a short one). */
  jobLeaseMs?: number;
  /** The crawler's clock (tests record its waits on a virtual one). */
  crawlClock?: CrawlClock;
  /** `false`: no job stores the local engine's sentence vectors (benchmarks of ingestion alone). */
  storeSentenceVectors?: boolean;
}

export function createServices(config: Config, database: Database, logger: Logger, options: ServiceOptions = {}): Services {
  const { db } = database;
  const jobs = new JobQueue(db);
  const worker = new JobWorker(jobs, logger.child({ component: 'jobs' }), {
    concurrency: config.jobConcurrency, maxPerOrganisation: config.jobMaxPerOrganisation, pollIntervalMs: options.jobPollIntervalMs, leaseMs: options.jobLeaseMs ?? config.jobLeaseMs, retentionMs: config.jobRetentionMs,
  });
  const organisations = new OrganisationsService(db, config, logger);
  const { notifications, webhooks } = createNotificationsFeature(config, db, jobs, worker, logger.child({ component: 'notifications' }));
  const chatbotsRepository = new ChatbotsRepository(db);
  // The offline sentence encoder ranks the local engine's sentences and, without an embeddings
  // provider, gives retrieval its vectors too (LOCAL_SENTENCE_ENCODER=false turns it off).
  const encoder = config.localSentenceEncoder ? new WorkerSentenceEncoder() : undefined;
  const localVectors = encoder && !config.embeddings ? { embedder: localEmbedder(encoder) } : {};
  // The local engine answers the model families without credentials; their sentence vectors are stored at ingestion.
  const localEngineAnswers = Object.values(config.providers).some((provider) => !provider.apiKey);
  const sentenceVectors = encoder && localEngineAnswers && options.storeSentenceVectors !== false ? { sentenceEncoder: encoder } : {};
  const { resources, resourceUpkeep, qaResources, resourceSync, queueMissingSentenceVectors, queueSentenceVectorsFor } = createResourcesFeature(
    config, db, jobs, worker, logger.child({ component: 'resources' }),
    {
      ...localVectors, ...sentenceVectors, ...(options.crawlClock ? { crawlClock: options.crawlClock } : {}),
      onProcessed: (resource, trx) => notifications.publish(resource.organisationId, 'resource.processed', { ...toResourceResponse(resource) }, { db: trx }),
    }, encoder,
  );
  // A chatbot answered locally that starts using resources gets their sentence vectors stored (when they were skipped).
  const chatbots = new ChatbotsService(chatbotsRepository, config.publicUrl, async (...args) => {
    // The chatbot is saved: vectors not queued now are queued at the next start.
    await queueSentenceVectorsFor?.(...args).catch((err: unknown) => logger.warn({ err }, 'could not queue sentence vectors for a chatbot\'s resources'));
  });
  const conversationsRepository = new ConversationsRepository(db);
  const models = new ModelRegistry(config.providers, logger.child({ component: 'models' }), encoder, config.modelMap);
  const analysisScheduler = new AnalysisScheduler(jobs, worker, config.analysisDelayMs);
  const conversations = new ConversationsService(db, conversationsRepository, chatbots, analysisScheduler);
  // Live events reach the other instances through LISTEN/NOTIFY; PGlite belongs to this process alone.
  const liveEvents = database.kind === 'postgres'
    ? postgresBus({ connection: db.client.connectionSettings as string, db, logger: logger.child({ component: 'live-events' }) })
    : inProcessBus();
  const handoff = new HandoffService(db, new HandoffRepository(db), liveEvents, analysisScheduler);
  const leads = new LeadsService(new LeadsRepository(db), chatbots, notifications);
  const feedback = new FeedbackService(new FeedbackRepository(db), chatbots, notifications);
  worker.register(ANALYSE_CONVERSATION, analyseConversationJob({
    conversations: conversationsRepository, chatbots: chatbotsRepository, logger: logger.child({ component: 'analysis' }),
    analyser: new ConversationAnalyser(db, models, config.analysisCustomFields),
  }));
  const usage = new UsageService(new UsageRepository(db));
  const admission = new FairAdmission(config.admission);
  const chat = new ChatService(resources, chatbots, usage, models, {
    contextChunks: config.chatContextChunks, resourceChatModel: config.resourceChatModel, admission,
  });
  const embed = createEmbedService({ db, config, chatbotsRepository, organisations, chat, conversations, leads, feedback, notifications });
  const insights = new InsightsService(new InsightsRepository(db), chatbots, feedback);
  const gapsRepository = new KnowledgeGapsRepository(db);
  const knowledgeGaps = new KnowledgeGapsService(gapsRepository, chatbots, encoder);
  const savedAnswers = new SavedAnswersService(gapsRepository, chatbots, resources, qaResources);
  const members = new MembersService(db, config.publicUrl, notifications);
  const sessions = new SessionsService(db, organisations, members, {
    ttlMs: config.consoleSessionTtlMs, maxPerKey: config.consoleSessionsPerKey, features: { hostedVideo: config.videoHostUrl !== undefined },
  });
  const warmUp = new WarmUp([
    // The encoder's model takes most of a second to load: at start, not in the first visitor's answer.
    ...(encoder && localEngineAnswers ? [{ name: 'sentence encoder', run: async () => { await encoder.embed(['Hello.'], { cache: false }); } }] : []),
    // The English dictionary the local engine checks spelling against (80 ms, 30 MB).
    ...(localEngineAnswers ? [{ name: 'dictionary', run: async () => ({ words: loadEnglishWords() }) }] : []),
    { name: 'term indexes', run: async () => ({ resources: (await ChunkTermCache.of(db).warm()).length }) },
  ], logger.child({ component: 'warm-up' }));
  return { config, database, logger, jobs, worker, organisations, chatbots, chatbotsRepository, resources, resourceUpkeep, qaResources, resourceSync, queueMissingSentenceVectors, conversations,
    warmUp, leads, feedback, insights, knowledgeGaps, savedAnswers, usage, models, chat, admission, embed, sessions, members, notifications, webhooks, handoff,
    audit: new AuditService(db, logger.child({ component: 'audit' })) };
}
