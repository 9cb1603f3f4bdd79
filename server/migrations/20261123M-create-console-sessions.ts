import type { Knex } from 'knex';

/**
 * Owner console sessions: one row per sign-in, so sign-out and key revocation end a session at
 * once on every instance (the cookie itself only carries the row id and its signature).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('console_sessions', (t) => {
    t.string('id', 24).primary();
    t.string('key_id', 24).notNullable().references('api_keys.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('ended_at');
    t.index(['key_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('console_sessions');
}
