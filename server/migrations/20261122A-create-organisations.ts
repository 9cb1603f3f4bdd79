import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organisations', (t) => {
    t.string('id', 24).primary();
    t.text('name').notNullable();
    t.bigInteger('created_at').notNullable();
    // Plan limits; null means unlimited (decisions.md § Running it).
    t.integer('plan_monthly_messages');
    t.integer('plan_max_resources');
    t.bigInteger('plan_max_storage_bytes');
    t.specificType('plan_models', 'text[]');
    // false: the plan from the environment applies, and follows it when the operator changes it.
    t.boolean('plan_custom').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('users', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['organisation_id']);
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('user_id', 24).notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // SHA-256 of the key: keys are 256-bit random, so a fast hash is safe and lookups stay O(1).
    t.string('key_hash', 64).notNullable().unique();
    t.string('key_prefix', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('revoked_at');
  });
  await knex.schema.createTable('settings', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
  });
  await knex.schema.createTable('usage_counters', (t) => {
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('month', 7).notNullable();
    t.integer('messages').notNullable().defaultTo(0);
    t.primary(['organisation_id', 'month']);
  });
  await knex.schema.createTable('rate_limit_hits', (t) => {
    t.text('key').primary();
    t.integer('hits').notNullable();
    t.bigInteger('reset_at').notNullable();
    t.index(['reset_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rate_limit_hits', 'usage_counters', 'settings', 'api_keys', 'users', 'organisations']) {
    await knex.schema.dropTable(table);
  }
}
