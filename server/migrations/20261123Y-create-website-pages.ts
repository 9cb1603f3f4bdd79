import type { Knex } from 'knex';

/**
 * Whole-site discovery (issue 13): what the last crawl of a WEB resource learnt of each page it
 * indexed (validators for a conditional re-fetch, the hash of the section its chunks were cut
 * from, its links), and the list of indexed pages that the resource's `website.subLinks` shows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('website_pages', (t) => {
    t.string('resource_id', 24).notNullable().references('resources.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable();
    t.text('url').notNullable();
    t.integer('ordinal').notNullable();
    t.text('etag');
    t.text('last_modified');
    t.text('section_hash').notNullable();
    // The text pipeline and extraction settings the hash was made under: another one re-fetches in full.
    t.text('pipeline').notNullable();
    t.integer('text_bytes').notNullable().defaultTo(0);
    // Same-origin links of the page, followed again when it answers 304.
    t.jsonb('links');
    t.primary(['resource_id', 'url']);
  });
  await knex.schema.alterTable('resources', (t) => {
    t.jsonb('website_indexed_links');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.dropColumn('website_indexed_links');
  });
  await knex.schema.dropTable('website_pages');
}
