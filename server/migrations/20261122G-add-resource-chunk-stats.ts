import type { Knex } from 'knex';

/**
 * Per-resource chunk statistics (number of chunks, total tokens), kept by ingestion when it swaps
 * a chunk set. BM25 needs the scope's chunk count and mean length on every question; summing a
 * few resource rows is constant work where counting the chunks grows with the index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.integer('chunk_count').notNullable().defaultTo(0);
    t.bigInteger('chunk_tokens').notNullable().defaultTo(0);
  });
  await knex.raw(
    `UPDATE resources r SET chunk_count = s.chunks, chunk_tokens = s.tokens
     FROM (SELECT resource_id, count(*) AS chunks, coalesce(sum(token_count), 0) AS tokens FROM resource_chunks GROUP BY resource_id) s
     WHERE r.id = s.resource_id`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.dropColumn('chunk_tokens');
    t.dropColumn('chunk_count');
  });
}
