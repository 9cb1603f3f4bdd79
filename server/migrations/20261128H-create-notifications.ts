import type { Knex } from 'knex';

/**
 * Notifications (issue 36): webhook endpoints and the messages queued for each (in order per
 * endpoint by `seq`), each organisation's notification addresses, and the marks that hold a
 * conversation to one mail per few minutes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description');
    t.jsonb('events').notNullable();
    t.text('secret').notNullable();
    // After a rotation the old secret signs too, until `previous_secret_until`.
    t.text('previous_secret');
    t.bigInteger('previous_secret_until');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    // Set at the first failure after a success; the endpoint is disabled when it stays set for a day.
    t.bigInteger('failing_since');
    // A sender's lease: one sender per endpoint at a time keeps messages in order.
    t.string('sending_by', 64);
    t.bigInteger('sending_until');
    t.bigInteger('created_at').notNullable();
    t.index(['organisation_id', 'created_at']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('endpoint_id', 24).notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable();
    t.string('type', 64).notNullable();
    t.text('body').notNullable();
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('response_status');
    t.text('last_error');
    t.bigInteger('next_attempt_at').notNullable();
    t.bigInteger('first_attempt_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('delivered_at');
    t.index(['endpoint_id', 'status', 'seq']);
  });
  await knex.schema.createTable('notification_recipients', (t) => {
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.jsonb('events').notNullable();
    t.integer('position').notNullable();
    t.primary(['organisation_id', 'email']);
  });
  await knex.schema.createTable('notification_mail_marks', (t) => {
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('subject_key', 80).notNullable();
    t.bigInteger('sent_at').notNullable();
    t.primary(['organisation_id', 'subject_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_mail_marks');
  await knex.schema.dropTable('notification_recipients');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
}
