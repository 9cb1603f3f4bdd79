import type { Knex } from 'knex';

/**
 * Team accounts: the members of an organisation (each is also a row of `users`, so what a member
 * creates names it as its creator), invitations, console sessions that belong to a member instead
 * of a key, and the audit log of who changed what.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('members', (t) => {
    t.string('id', 24).primary().references('users.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    // Lower case; one account per address across the install, since sign-in names no organisation.
    t.string('email', 254).notNullable().unique();
    t.text('name').notNullable();
    t.text('avatar_url');
    t.string('role', 8).notNullable();
    // scrypt, self-describing: `scrypt$N$r$p$salt$hash` (password.ts).
    t.text('password_hash').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['organisation_id']);
  });
  await knex.schema.createTable('member_invitations', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.string('role', 8).notNullable();
    // SHA-256 of the token: the token carries 256 random bits, and only its holder can accept.
    t.string('token_hash', 64).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('accepted_at');
  });
  await knex.raw('ALTER TABLE console_sessions ALTER COLUMN key_id DROP NOT NULL');
  await knex.schema.alterTable('console_sessions', (t) => {
    t.string('member_id', 24).references('members.id').onDelete('CASCADE');
    t.index(['member_id']);
  });
  await knex.schema.createTable('audit_events', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    // The member, or the API key (`actor_member_id` null), that made the change; the name as it was then.
    t.string('actor_member_id', 24);
    t.string('actor_key_id', 24);
    t.text('actor_name').notNullable();
    t.string('action', 40).notNullable();
    t.string('target_type', 16).notNullable();
    t.string('target_id', 24);
    t.text('target_name');
    t.bigInteger('created_at').notNullable();
    t.index(['organisation_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex('console_sessions').whereNull('key_id').delete();
  await knex.schema.alterTable('console_sessions', (t) => { t.dropColumn('member_id'); });
  await knex.raw('ALTER TABLE console_sessions ALTER COLUMN key_id SET NOT NULL');
  await knex.schema.dropTable('member_invitations');
  await knex.schema.dropTable('members');
}
