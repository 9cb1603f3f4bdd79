import type { Knex } from 'knex';

/**
 * The sites a chatbot's widget was loaded on, and the origins its allowed domains refused, so the
 * owner sees a wrong domain in the console (issue 40). A few rows per chatbot (the newest kept).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chatbot_embed_origins', (t) => {
    t.string('chatbot_id', 24).notNullable().references('chatbots.id').onDelete('CASCADE');
    t.string('origin', 300).notNullable();
    t.boolean('allowed').notNullable();
    t.bigInteger('last_seen_at').notNullable();
    t.integer('count').notNullable().defaultTo(1);
    t.primary(['chatbot_id', 'allowed', 'origin']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chatbot_embed_origins');
}
