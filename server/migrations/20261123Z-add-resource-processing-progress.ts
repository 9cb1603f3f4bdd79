import type { Knex } from 'knex';

/**
 * How far a long read has come (0..1: the share of a video's audio transcribed), so an owner
 * sees a 40-minute transcription advance instead of a bare `IN_PROGRESS`. Null when not known.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.float('processing_progress');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('resources', (t) => {
    t.dropColumn('processing_progress');
  });
}
