import type { Knex } from 'knex';

/**
 * Live handoff (issue 35): each conversation's state (BOT, WAITING, HUMAN, CLOSED), who holds it
 * and when it last changed; the events the inbox and the visitor's stream replay from
 * (`Last-Event-ID`); and when someone of the team was last active, for availability.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversations', (t) => {
    t.string('state', 8).notNullable().defaultTo('BOT');
    t.bigInteger('state_changed_at');
    t.string('holder_member_id', 24);
    t.string('holder_name', 200);
    // Newest activity first in the inbox: the last message or state change.
    t.bigInteger('last_activity_at');
    t.index(['organisation_id', 'state', 'last_activity_at']);
  });
  await knex('conversations').update({ last_activity_at: knex.ref('updated_at') });
  await knex.schema.createTable('conversation_events', (t) => {
    // Global order: the `id:` of every SSE event, so a reconnect names where it stopped.
    t.bigIncrements('id').primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('chatbot_id', 24).notNullable();
    t.string('conversation_id', 24).notNullable().references('conversations.id').onDelete('CASCADE');
    t.string('type', 16).notNullable();
    t.jsonb('payload').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['conversation_id', 'id']);
    t.index(['organisation_id', 'id']);
    // Old events are pruned (handoff.service.ts): the messages stay in their conversation.
    t.index(['created_at']);
  });
  await knex.schema.createTable('team_presence', (t) => {
    t.string('organisation_id', 24).primary().references('organisations.id').onDelete('CASCADE');
    t.bigInteger('last_seen_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('team_presence');
  await knex.schema.dropTable('conversation_events');
  await knex.schema.alterTable('conversations', (t) => {
    t.dropIndex(['organisation_id', 'state', 'last_activity_at']);
    t.dropColumns('state', 'state_changed_at', 'holder_member_id', 'holder_name', 'last_activity_at');
  });
}
