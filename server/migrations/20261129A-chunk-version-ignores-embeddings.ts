import type { Knex } from 'knex';

/**
 * A chunk's embedding written after its resource is DONE (the local encoder fills chunk vectors in
 * the background) does not change the resource's `chunk_version`: its words, and so every
 * instance's term index of it, are the same. Other updates of a chunk still bump it. The job that
 * writes the embeddings bumps the version once, when the resource's last chunk has its vector.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION bump_resource_chunk_version_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE resources SET chunk_version = chunk_version + 1 WHERE id IN (
        SELECT DISTINCT n.resource_id FROM new_chunks n JOIN old_chunks o ON o.id = n.id
        WHERE (to_jsonb(n) - 'embedding' - 'embedding_model') IS DISTINCT FROM (to_jsonb(o) - 'embedding' - 'embedding_model'));
      RETURN NULL;
    END $$`);
  await knex.raw('DROP TRIGGER resource_chunks_version_update ON resource_chunks');
  await knex.raw(`
    CREATE TRIGGER resource_chunks_version_update AFTER UPDATE ON resource_chunks
    REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_chunk_version_on_update()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER resource_chunks_version_update ON resource_chunks');
  await knex.raw(`
    CREATE TRIGGER resource_chunks_version_update AFTER UPDATE ON resource_chunks
    REFERENCING NEW TABLE AS changed_chunks FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_chunk_version()`);
  await knex.raw('DROP FUNCTION IF EXISTS bump_resource_chunk_version_on_update()');
}
