import type { Knex } from 'knex';

/**
 * Knowledge gaps an owner closed (dismissed or answered), by the gap's stable id, and each
 * chatbot's own saved-answers resource (the one "Answer it" adds pairs to).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('knowledge_gap_closures', (t) => {
    t.string('chatbot_id', 24).notNullable().references('chatbots.id').onDelete('CASCADE');
    t.string('gap_id', 24).notNullable();
    t.string('reason', 16).notNullable();
    t.bigInteger('closed_at').notNullable();
    t.primary(['chatbot_id', 'gap_id']);
  });
  await knex.schema.createTable('chatbot_saved_answers', (t) => {
    t.string('chatbot_id', 24).primary().references('chatbots.id').onDelete('CASCADE');
    t.string('resource_id', 24).notNullable().references('resources.id').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chatbot_saved_answers');
  await knex.schema.dropTable('knowledge_gap_closures');
}
