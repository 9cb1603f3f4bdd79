import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('conversations', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('chatbot_id', 24).notNullable().references('chatbots.id').onDelete('CASCADE');
    t.string('user_id', 24);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.jsonb('messages').notNullable().defaultTo('[]');
    t.string('source_type', 16).notNullable();
    t.jsonb('source').notNullable();
    // SHA-256 of the secret a visitor needs to extend its own conversation.
    t.string('visitor_token_hash', 64);
    t.string('analysis_status', 16).notNullable().defaultTo('PENDING');
    t.jsonb('analysis_result');
    // The listing filters by chatbot and time range, newest first (issue: 10k conversations stay fast).
    t.index(['chatbot_id', 'created_at']);
  });
  await knex.schema.createTable('leads', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('chatbot_id', 24).notNullable().references('chatbots.id').onDelete('CASCADE');
    t.string('conversation_id', 24);
    t.bigInteger('created_at').notNullable();
    t.text('name');
    t.text('email');
    t.text('phone');
    t.index(['chatbot_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('leads');
  await knex.schema.dropTable('conversations');
}
