import type { Knex } from 'knex';

/** Visitors' 👍/👎 on answers, and the page a lead was left on (widget issue: feedback, lead offers). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('message_feedback', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('chatbot_id', 24).notNullable().references('chatbots.id').onDelete('CASCADE');
    t.string('conversation_id', 24).notNullable().references('conversations.id').onDelete('CASCADE');
    t.integer('message_index').notNullable();
    t.string('rating', 4).notNullable();
    t.text('comment');
    t.bigInteger('created_at').notNullable();
    // One verdict per answer: a second one replaces the first.
    t.unique(['conversation_id', 'message_index']);
    t.index(['chatbot_id', 'created_at']);
  });
  await knex.schema.alterTable('leads', (t) => {
    t.text('page_url');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('leads', (t) => {
    t.dropColumn('page_url');
  });
  await knex.schema.dropTable('message_feedback');
}
