import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('resources', (t) => {
    t.string('id', 24).primary();
    t.string('organisation_id', 24).notNullable().references('organisations.id').onDelete('CASCADE');
    t.string('creator', 24).notNullable();
    t.text('file_name').notNullable();
    t.string('type', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    t.string('ai_processing_status', 24).notNullable().defaultTo('NOT_STARTED');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.bigInteger('hosted_video_id');
    t.jsonb('drive_resource_file');
    t.text('website_url');
    t.specificType('website_sub_links', 'text[]');
    t.jsonb('website_settings');
    t.string('sync_frequency', 16);
    t.integer('video_length');
    t.bigInteger('file_size');
    t.text('storage_path');
    t.text('text_content');
    t.bigInteger('last_sync');
    t.bigInteger('next_sync_at');
    t.text('failure_reason');
    // Bytes this resource counts against the plan's storage quota.
    t.bigInteger('stored_bytes').notNullable().defaultTo(0);
    t.index(['organisation_id', 'created_at']);
    t.index(['next_sync_at']);
  });
  await knex.schema.createTable('resource_chunks', (t) => {
    t.bigIncrements('id');
    t.string('resource_id', 24).notNullable().references('resources.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable();
    t.integer('ordinal').notNullable();
    t.text('content').notNullable();
    // Where the text came from: { page?, url?, title?, startSeconds?, endSeconds? }.
    t.jsonb('provenance').notNullable().defaultTo('{}');
    t.index(['resource_id', 'ordinal']);
  });
  await knex.raw(
    "ALTER TABLE resource_chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED",
  );
  await knex.raw('CREATE INDEX resource_chunks_tsv_idx ON resource_chunks USING GIN (tsv)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('resource_chunks');
  await knex.schema.dropTable('resources');
}
