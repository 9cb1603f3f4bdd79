#!/usr/bin/env node
// The integration tests also run on a PostgreSQL server (TEST_POSTGRES_URL, default the local one).
// Checks it answers and has pgvector; as root, starts the local cluster if it is down.
import { execSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function check() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rows } = await client.query("select count(*)::int as n from pg_available_extensions where name = 'vector'");
    return rows[0].n > 0;
  } finally {
    await client.end();
  }
}

try {
  let vector;
  try {
    vector = await check();
  } catch (err) {
    if (process.getuid?.() !== 0 || process.env.TEST_POSTGRES_URL) throw err;
    execSync('pg_ctlcluster --skip-systemctl-redirect 15 main start', { stdio: 'inherit' });
    vector = await check();
  }
  if (!vector) process.stderr.write('note: pgvector is not installed on the PostgreSQL server; vector search tests run on PGlite only\n');
  process.stdout.write(`PostgreSQL at ${url.replace(/:[^:@/]*@/, ':***@')} answers\n`);
} catch (err) {
  process.stderr.write(`The integration tests need a PostgreSQL server at ${url} (set TEST_POSTGRES_URL; trust or password auth, a role that may CREATE DATABASE): ${err.message}\n`);
  process.exit(1);
}
