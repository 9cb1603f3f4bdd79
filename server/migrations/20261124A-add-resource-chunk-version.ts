import type { Knex } from 'knex';

/**
 * A version per resource that changes whenever any of its chunks is inserted, updated or deleted,
 * whoever writes them (ingestion, a re-sync, a fixture): statement-level triggers bump it. An
 * instance caches a resource's immutable chunk terms under this version (retrieval's term index,
 * chunk-term-cache.ts) and reads the versions with every question, so a re-indexed or deleted
 * resource is never served stale, on any instance, without a listener connection.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.bigInteger('chunk_version').notNullable().defaultTo(0);
  });
  await knex.raw(`
    CREATE FUNCTION bump_resource_chunk_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE resources SET chunk_version = chunk_version + 1 WHERE id IN (SELECT DISTINCT resource_id FROM changed_chunks);
      RETURN NULL;
    END $$`);
  // A trigger with transition tables takes one event each.
  for (const [event, table] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
    await knex.raw(`
      CREATE TRIGGER resource_chunks_version_${event.toLowerCase()} AFTER ${event} ON resource_chunks
      REFERENCING ${table} TABLE AS changed_chunks FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_chunk_version()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS resource_chunks_version_${event} ON resource_chunks`);
  await knex.raw('DROP FUNCTION IF EXISTS bump_resource_chunk_version()');
  await knex.schema.alterTable('resources', (t) => {
    t.dropColumn('chunk_version');
  });
}
