import type { Knex } from 'knex';

/**
 * Where an ingestion run writes a resource's new chunks, batch by batch in short transactions,
 * before they replace the old ones: no reader looks here, so until the run commits, readers see
 * the old chunk set whole. The run's last transaction copies its rows into `resource_chunks`
 * (their full-text vectors and token counts as computed here, not again) and deletes them. On the
 * embedded database, one long transaction writing every chunk of a big resource held its only
 * connection, and every other organisation's request waited behind it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('resource_chunk_staging', (t) => {
    t.bigIncrements('id');
    // One ingestion run's rows (a retry or a concurrent sync of the same resource has its own key).
    t.text('run_key').notNullable();
    // The job that wrote them: rows of a job no longer running are left over from a crash.
    t.bigInteger('job_id').notNullable();
    t.string('resource_id', 24).notNullable().references('resources.id').onDelete('CASCADE');
    t.string('organisation_id', 24).notNullable();
    // The chunk's place among the run's new chunks (0, 1, …); offset by the resource's ordinals at the copy.
    t.integer('ordinal').notNullable();
    t.text('content').notNullable();
    t.jsonb('provenance').notNullable().defaultTo('{}');
    t.text('content_hash');
    t.specificType('tsv', 'tsvector').notNullable();
    t.integer('token_count').notNullable();
    // A vector literal (cast on the copy): this table needs no pgvector.
    t.text('embedding');
    t.text('embedding_model');
    t.index(['run_key', 'ordinal']);
    t.index(['resource_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('resource_chunk_staging');
}
