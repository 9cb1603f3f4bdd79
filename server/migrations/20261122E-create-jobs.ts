import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.bigIncrements('id');
    t.string('kind', 32).notNullable();
    t.jsonb('payload').notNullable();
    // queued → running → done | failed; a running job whose lease expired is taken again.
    t.string('status', 16).notNullable().defaultTo('queued');
    t.bigInteger('run_at').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(3);
    t.text('locked_by');
    t.bigInteger('locked_until');
    t.text('last_error');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('finished_at');
    // Deduplicates pending work: at most one queued job per key (one more may be running).
    t.text('dedupe_key');
    t.index(['status', 'run_at']);
  });
  await knex.raw("CREATE UNIQUE INDEX jobs_dedupe_key_idx ON jobs (dedupe_key) WHERE status = 'queued'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('jobs');
}
