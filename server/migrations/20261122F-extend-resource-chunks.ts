import type { Knex } from 'knex';

/**
 * Adds what ingestion and retrieval need on top of 20261122B: the hash of the source section a
 * chunk came from (unchanged pages are not re-indexed on a re-sync), the chunk's length in
 * tokens (BM25 length normalisation) and, where pgvector is available, an embedding column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resource_chunks', (t) => {
    t.text('content_hash');
    t.integer('token_count').notNullable().defaultTo(0);
    t.index(['organisation_id']);
  });
  // pgvector ships with PGlite; a PostgreSQL server may lack it (or deny CREATE EXTENSION). A
  // savepoint keeps a refusal from aborting the migration: vectors are then simply disabled.
  const available = await knex.raw("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rows.length === 0) return;
  try {
    await knex.transaction(async (trx) => {
      await trx.raw('CREATE EXTENSION IF NOT EXISTS vector');
      // No fixed dimension: the embeddings model is the operator's choice and may change.
      await trx.raw('ALTER TABLE resource_chunks ADD COLUMN embedding vector');
      await trx.raw('ALTER TABLE resource_chunks ADD COLUMN embedding_model text');
    });
  } catch {
    /* no permission to create the extension: retrieval runs on full text alone */
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE resource_chunks DROP COLUMN IF EXISTS embedding_model');
  await knex.raw('ALTER TABLE resource_chunks DROP COLUMN IF EXISTS embedding');
  await knex.schema.alterTable('resource_chunks', (t) => {
    t.dropIndex(['organisation_id']);
    t.dropColumn('token_count');
    t.dropColumn('content_hash');
  });
}
