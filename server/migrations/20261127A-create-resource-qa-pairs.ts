import type { Knex } from 'knex';

/**
 * Saved answers of QA resources, one row per pair: a pair has a stable id that chat sources name,
 * and is added or deleted alone, while listings of resources (which read `resources.source`)
 * stay as small as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('resource_qa_pairs', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('resource_id', 24).notNullable().references('resources.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.jsonb('questions').notNullable();
    t.text('answer').notNullable();
    t.index(['resource_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('resource_qa_pairs');
}
