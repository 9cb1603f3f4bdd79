import type { Knex } from 'knex';

/**
 * Each source type's own data moves into one jsonb column, `source`, shaped by the type's module
 * (server/src/features/resources/sources/<type>/): adding a type no longer adds columns. Columns
 * that SQL reads across types stay (next_sync_at, last_sync, stored_bytes, statuses, chunk
 * statistics), and so does text_content: a TEXT resource's text may be 5 MB, and as a column of
 * its own it is left out of listings, where jsonb would be read whole on every row.
 */

/** Old column → key in `source`, per type (null values are left out). */
const MOVED: Record<string, Record<string, string>> = {
  PDF: { storagePath: 'storage_path', fileSize: 'file_size' },
  VIDEO: { storagePath: 'storage_path', fileSize: 'file_size', videoLength: 'video_length' },
  HOSTED_VIDEO: { hostedVideoId: 'hosted_video_id' },
  WEB: {
    url: 'website_url', subLinks: 'website_sub_links', settings: 'website_settings',
    syncFrequency: 'sync_frequency', indexedLinks: 'website_indexed_links',
  },
  DRIVE: { file: 'drive_resource_file' },
};

const TYPES = Object.keys(MOVED);

/** `jsonb_build_object` of a type's moved columns without the null ones. */
function sourceOf(type: string): string {
  const pairs = Object.entries(MOVED[type]!).map(([key, column]) => `'${key}', to_jsonb(${column})`).join(', ');
  return `(SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(jsonb_build_object(${pairs})) WHERE value <> 'null'::jsonb)`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.jsonb('source').notNullable().defaultTo('{}');
  });
  for (const type of TYPES) await knex.raw(`UPDATE resources SET source = ${sourceOf(type)} WHERE type = ?`, [type]);
  await knex.schema.alterTable('resources', (t) => {
    for (const column of ['hosted_video_id', 'drive_resource_file', 'website_url', 'website_sub_links', 'website_settings',
      'website_indexed_links', 'sync_frequency', 'video_length', 'file_size', 'storage_path']) t.dropColumn(column);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.bigInteger('hosted_video_id');
    t.jsonb('drive_resource_file');
    t.text('website_url');
    t.specificType('website_sub_links', 'text[]');
    t.jsonb('website_settings');
    t.jsonb('website_indexed_links');
    t.string('sync_frequency', 16);
    t.integer('video_length');
    t.bigInteger('file_size');
    t.text('storage_path');
  });
  await knex.raw(`UPDATE resources SET
    hosted_video_id = (source->>'hostedVideoId')::bigint,
    drive_resource_file = source->'file',
    website_url = source->>'url',
    website_sub_links = CASE WHEN source->'subLinks' IS NOT NULL THEN ARRAY(SELECT jsonb_array_elements_text(source->'subLinks')) END,
    website_settings = source->'settings',
    website_indexed_links = source->'indexedLinks',
    sync_frequency = source->>'syncFrequency',
    video_length = (source->>'videoLength')::integer,
    file_size = (source->>'fileSize')::bigint,
    storage_path = source->>'storagePath'`);
  await knex.schema.alterTable('resources', (t) => {
    t.dropColumn('source');
  });
}
