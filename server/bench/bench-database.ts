import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import knexFactory from 'knex';
import { migrate, openDatabase, type Database } from '../src/db/knex.js';

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase extends Database {
  dataDir: string;
  /** How a service in another process reaches this database (`DATA_DIR` for PGlite, `DATABASE_URL` for PostgreSQL). */
  serviceEnv: Record<string, string>;
  /** Closes this process's connection, keeping the data (PGlite admits one process at a time). */
  release(): Promise<void>;
}

/**
 * A fresh, migrated database for one benchmark: embedded PGlite in a temp directory, or a new
 * database on the PostgreSQL server (dropped on close).
 */
export async function benchDatabase(kind: 'pglite' | 'postgres'): Promise<BenchDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-bench-'));
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir });
    await migrate(database.db);
    return {
      ...database, dataDir, serviceEnv: { DATA_DIR: dataDir }, release: database.close,
      close: async () => { await database.close(); await fs.rm(dataDir, { recursive: true, force: true }); },
    };
  }
  const name = `parley_bench_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolMax: 10 });
  await migrate(database.db);
  return {
    ...database, dataDir, serviceEnv: { DATABASE_URL: url.toString() }, release: database.close,
    close: async () => {
      await database.close();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whether the PostgreSQL server answers (benchmarks on it are skipped otherwise). */
export async function postgresAvailable(): Promise<boolean> {
  const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 3000 });
  try {
    await admin.raw('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await admin.destroy();
  }
}
