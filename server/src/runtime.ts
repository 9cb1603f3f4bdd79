import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { startAdminSocket } from './admin/admin-socket.js';
import { createApp } from './app.js';
import { answerClientErrors } from './http/client-errors.js';
import type { Config } from './config.js';
import { migrate, openDatabase, type Database } from './db/knex.js';
import { applyServerTimeouts } from './http/request-deadline.js';
import type { CreatedOrganisation } from './features/organisations/organisations.service.js';
import { secureDataDir, tightenDataDir } from './data-dir.js';
import { createServices, type ServiceOptions, type Services } from './services.js';
import { closeIdleParsers } from './features/resources/ingestion/sandbox/parser-process.js';

export interface RunningService {
  url: string;
  services: Services;
  /** The first organisation's key, when this start created it. */
  bootstrapped?: CreatedOrganisation;
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 10_000;

/** Refuses a second service on the same embedded database: PGlite must have one process. */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, 'service.pid');
  const existing = Number(await fs.readFile(lockPath, 'utf8').catch(() => ''));
  if (existing && existing !== process.pid) {
    let alive = true;
    try { process.kill(existing, 0); } catch { alive = false; }
    if (alive) throw new Error(`another service (pid ${existing}) is already running on ${dataDir}`);
  }
  await fs.writeFile(lockPath, String(process.pid));
  return () => fs.rm(lockPath, { force: true });
}

/** Opens the database, migrates it, starts the workers and the HTTP server. */
export async function startService(config: Config, logger: Logger, options: ServiceOptions & { database?: Database } = {}): Promise<RunningService> {
  await secureDataDir(config.dataDir);
  const embedded = !config.databaseUrl && !options.database;
  const unlock = embedded ? await lockDataDir(config.dataDir) : async () => {};
  const database = options.database ?? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax, namedStatements: config.databaseNamedStatements });
  await migrate(database.db);
  // PGlite writes its relation cache files (pg_internal.init) 0644 whatever the umask says.
  if (embedded) await tightenDataDir(config.dataDir);
  const services = createServices(config, database, logger, options);
  const bootstrapped = await services.organisations.bootstrap();
  const closeAdmin = await startAdminSocket(config.dataDir, services.organisations, services.members, logger.child({ component: 'admin' }));
  if (config.jobsEnabled) {
    // Embedded: this process is the database's only user, so any running job was interrupted.
    if (database.kind === 'pglite') await services.jobs.requeueRunning();
    services.worker.start();
    services.resourceSync.start(config.syncCheckIntervalMs);
    // Knowledge indexed before sentence vectors were stored gets them in the background.
    void services.queueMissingSentenceVectors?.().then((queued) => {
      if (queued > 0) logger.info({ resources: queued }, 'sentence vectors queued for knowledge indexed without them');
      services.worker.notify();
    }, (err: unknown) => logger.warn({ err }, 'could not queue missing sentence vectors'));
  }
  // A deep accept queue: a burst of visitors (1,000 streams at once in the chat benchmark) is
  // queued instead of reset at Node's default of 511.
  const server = createApp(services).listen(config.port, config.host, 4096);
  answerClientErrors(server);
  applyServerTimeouts(server, config.requestTimeouts);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  // In the background: requests are answered meanwhile; `/health/ready` says when it is done.
  void services.warmUp.start();
  let closing: Promise<void> | undefined;
  const close = () => closing ??= (async () => {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Long streams get a grace period, then their connections are cut (clients reconnect elsewhere).
    const timer = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await stopped;
    clearTimeout(timer);
    await services.resourceSync.stop();
    await services.worker.stop();
    // Parser processes kept idle for the next ingestion job end with the jobs.
    closeIdleParsers();
    await services.handoff.events.close();
    await closeAdmin();
    await database.close();
    await unlock();
  })();
  return { url: `http://127.0.0.1:${port}`, services, bootstrapped, close };
}
