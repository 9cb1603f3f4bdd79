import type { Knex } from 'knex';

/**
 * The local engine's sentence vectors of each chunk, computed once after ingestion (a job) so
 * that no instance encodes a passage's sentences while a visitor waits, after a restart or on
 * another instance of a cluster. A table of their own, not a column of `resource_chunks`: writing
 * them must not bump the resource's chunk version (20261124A), which would make every instance
 * reload the resource's term index. They go with their chunk.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chunk_sentence_vectors', (t) => {
    t.bigInteger('chunk_id').primary().references('resource_chunks.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable();
    // The encoder that made them: vectors of another model are never compared.
    t.text('model').notNullable();
    // Packed 8-bit vectors keyed by a hash of their text (sentence-vectors.ts).
    t.binary('vectors').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chunk_sentence_vectors');
}
