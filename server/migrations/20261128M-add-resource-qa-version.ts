import type { Knex } from 'knex';

/**
 * A version per resource that changes whenever any of its saved-answer pairs is inserted, updated
 * or deleted, whoever writes them: statement-level triggers bump it, as `chunk_version` is bumped
 * for chunks. An instance caches a chatbot's saved answers under its QA resources' versions and
 * reads the versions with every question, so an edited pair takes effect at once on every instance.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.bigInteger('qa_version').notNullable().defaultTo(0);
  });
  await knex.raw(`
    CREATE FUNCTION bump_resource_qa_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE resources SET qa_version = qa_version + 1 WHERE id IN (SELECT DISTINCT resource_id FROM changed_pairs);
      RETURN NULL;
    END $$`);
  // A trigger with transition tables takes one event each.
  for (const [event, table] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
    await knex.raw(`
      CREATE TRIGGER resource_qa_pairs_version_${event.toLowerCase()} AFTER ${event} ON resource_qa_pairs
      REFERENCING ${table} TABLE AS changed_pairs FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_qa_version()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS resource_qa_pairs_version_${event} ON resource_qa_pairs`);
  await knex.raw('DROP FUNCTION IF EXISTS bump_resource_qa_version()');
  await knex.schema.alterTable('resources', (t) => {
    t.dropColumn('qa_version');
  });
}
