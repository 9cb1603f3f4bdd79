import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/knex.js';
import { ChatbotsRepository } from './features/chatbots/chatbots.repository.js';
import { ChatbotsService } from './features/chatbots/chatbots.service.js';
import { OrganisationsService } from './features/organisations/organisations.service.js';
import { JobQueue } from './jobs/job-queue.js';
import { JobWorker } from './jobs/job-worker.js';

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
}

export interface ServiceOptions {
  /** Idle poll interval of the job worker (tests use a short one). */
  jobPollIntervalMs?: number;
}

export function createServices(config: Config, database: Database, logger: Logger, options: ServiceOptions = {}): Services {
  const { db } = database;
  const jobs = new JobQueue(db);
  const worker = new JobWorker(jobs, logger.child({ component: 'jobs' }), {
    concurrency: config.jobConcurrency, pollIntervalMs: options.jobPollIntervalMs,
  });
  const organisations = new OrganisationsService(db, config, logger);
  const chatbotsRepository = new ChatbotsRepository(db);
  const chatbots = new ChatbotsService(chatbotsRepository, config.publicUrl);
  return { config, database, logger, jobs, worker, organisations, chatbots, chatbotsRepository };
}
