import fs from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { migrationSource } from '../../migrations/index.js';
import { enableNamedStatements } from './named-statements.js';

/** An open database: PGlite embedded in this process, or a PostgreSQL server. */
export interface Database {
  readonly db: Knex;
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection URL; when absent, PGlite stores its data under `dataDir`. */
  databaseUrl?: string;
  dataDir?: string;
  poolMax?: number;
  /** An existing PGlite instance (tests load one from a migrated template). */
  pglite?: PGlite;
  /** Hot queries as named prepared statements on a PostgreSQL server (default true; see named-statements.ts). */
  namedStatements?: boolean;
}

// int8 (Unix ms, byte counts, count(*)) as JS numbers, as PGlite returns them: every value we
// store stays far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

// Workaround: knex-pglite derives the SQL command from knex's method name, so a delete ("del")
// is reported as "DEL" and knex returns the raw result instead of the deleted row count.
// See knex-pglite's processResponse. Remove when: it maps `del` to DELETE.
type ResponseProcessor = new (config: Knex.Config) => {
  processResponse(obj: object, runner: unknown): unknown;
  _query(connection: unknown, obj: object): Promise<unknown>;
};
class PgLiteClient extends (ClientPgLite as unknown as ResponseProcessor) {
  override processResponse(obj: { method?: string }, runner: unknown): unknown {
    return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
  }

  /**
   * PGlite runs each statement on the service's own thread and answers it without a turn of the
   * event loop in between, so a chain of statements (a 5 MB text stored, read back and its job
   * started) held the loop for their sum. Each statement starts on a turn of its own: requests
   * waiting (a `/health` poll, another organisation's call) are answered between two statements.
   */
  override async _query(connection: unknown, obj: object): Promise<unknown> {
    await nextTurn();
    return super._query(connection, obj);
  }
}

/** The PGlite extensions every embedded database loads. */
export const PGLITE_EXTENSIONS = { vector };

/** Opens the configured database without migrating it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const db = knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
      migrations: { migrationSource },
    });
    if (options.namedStatements ?? true) enableNamedStatements(db);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let pglite = options.pglite;
  if (!pglite) {
    if (!options.dataDir) throw new Error('openDatabase needs databaseUrl, dataDir or pglite');
    const dir = path.join(options.dataDir, 'pgdata');
    await fs.mkdir(dir, { recursive: true });
    pglite = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  }
  const instance = pglite;
  // knex-pglite takes an existing instance only through this factory form, which its types omit.
  const db = knexFactory({
    client: PgLiteClient as unknown as typeof knexFactory.Client,
    connection: (() => ({ pglite: instance })) as unknown as Knex.StaticConnectionConfig,
    migrations: { migrationSource },
  });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (!instance.closed) await instance.close();
    },
  };
}

/** Runs every pending migration. */
export async function migrate(db: Knex): Promise<void> {
  await db.migrate.latest();
}
