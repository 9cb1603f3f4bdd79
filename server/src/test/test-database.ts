import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import knexFactory from 'knex';
import { migrate, openDatabase, PGLITE_EXTENSIONS, type Database } from '../db/knex.js';

/** Which database the integration tests run on: set per vitest project. */
export type TestDatabaseKind = 'pglite' | 'postgres';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Builds a migrated template once per run: a PGlite dump file, or a PostgreSQL template database. */
export async function createTemplate(kind: TestDatabaseKind, runId: string, dumpPath: string): Promise<string> {
  if (kind === 'pglite') {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const database = await openDatabase({ pglite });
    await migrate(database.db);
    const dump = await pglite.dumpDataDir('none');
    await fs.writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
    await database.close();
    return dumpPath;
  }
  const admin = knexFactory({ client: 'pg', connection: TEST_POSTGRES_URL, pool: { min: 0, max: 1 } });
  const name = `parley_test_${runId}_template`;
  await admin.raw(`CREATE DATABASE ${name}`);
  await admin.destroy();
  const database = await openDatabase({ databaseUrl: withDatabase(TEST_POSTGRES_URL, name), poolMax: 1 });
  await migrate(database.db);
  await database.close();
  return name;
}

/** Drops every database this run created. */
export async function dropRunDatabases(runId: string): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: TEST_POSTGRES_URL, pool: { min: 0, max: 1 } });
  try {
    const rows = await admin('pg_database').where('datname', 'like', `parley_test_${runId}_%`).pluck('datname');
    for (const name of rows) await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.destroy();
  }
}

/**
 * A fresh, migrated database for one test file: a PGlite instance loaded from the template dump,
 * or a PostgreSQL database copied from the template database. Closing it drops it.
 */
export async function createTestDatabase(kind: TestDatabaseKind, template: string, runId: string): Promise<Database> {
  if (kind === 'pglite') {
    const dump = await fs.readFile(template);
    const pglite = new PGlite({ loadDataDir: new Blob([dump]), extensions: PGLITE_EXTENSIONS });
    return openDatabase({ pglite });
  }
  const name = `parley_test_${runId}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: TEST_POSTGRES_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const database = await openDatabase({ databaseUrl: withDatabase(TEST_POSTGRES_URL, name), poolMax: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
