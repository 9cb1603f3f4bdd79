import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chatbots', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('creator', 24).notNullable();
    t.text('name').notNullable();
    t.text('welcome_message').notNullable();
    t.bigInteger('created_at').notNullable();
    t.string('chatbot_message_color', 7).notNullable();
    t.string('user_message_color', 7).notNullable();
    t.string('conversation_background_color', 7).notNullable();
    t.string('secondary_background_color', 7).notNullable();
    t.specificType('gradient_colors', 'text[]');
    t.boolean('show_badge').notNullable();
    t.boolean('enabled_emoji').notNullable();
    t.string('model', 64).notNullable();
    t.string('access_level', 16).notNullable();
    t.string('personality_type', 16).notNullable();
    t.string('tone_type', 16).notNullable();
    t.text('custom_system_prompt');
    t.text('restrict_answers_to_resources_content_response');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.text('password_hash');
    t.jsonb('website_integration');
    t.index(['organisation_id', 'created_at']);
  });
  // Avatars live in the database (under 5 MB each), so every instance of a cluster can serve them.
  await knex.schema.createTable('chatbot_avatars', (t) => {
    t.string('chatbot_id', 24).primary().references('chatbots.id').onDelete('CASCADE');
    t.string('content_type', 32).notNullable();
    t.binary('data').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('chatbot_resources', (t) => {
    t.string('chatbot_id', 24).notNullable().references('chatbots.id').onDelete('CASCADE');
    // RESTRICT: a resource in use is never deleted underneath a chatbot (the service answers 409).
    t.string('resource_id', 24).notNullable().references('resources.id').onDelete('RESTRICT');
    t.integer('position').notNullable();
    t.primary(['chatbot_id', 'resource_id']);
    t.index(['resource_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chatbot_resources');
  await knex.schema.dropTable('chatbot_avatars');
  await knex.schema.dropTable('chatbots');
}
