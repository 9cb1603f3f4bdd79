import type { Knex } from 'knex';

/**
 * A chunk's full-text vector (`tsv`) is no longer a generated column: the chunk insert computes
 * `to_tsvector` once and stores both the vector and the token count BM25 reads from it, where
 * the generated column made every insert compute it twice (a third of the embedded database's
 * time indexing a large site, on the service's own thread). A trigger fills `tsv` for any other
 * insert that leaves it out, and again whenever a chunk's content changes, so it never goes stale.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE resource_chunks ALTER COLUMN tsv DROP EXPRESSION');
  await knex.raw(`
    CREATE FUNCTION fill_resource_chunk_tsv() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' OR NEW.tsv IS NULL THEN
        NEW.tsv := to_tsvector('english', NEW.content);
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER resource_chunks_tsv BEFORE INSERT OR UPDATE OF content ON resource_chunks
    FOR EACH ROW EXECUTE FUNCTION fill_resource_chunk_tsv()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER resource_chunks_tsv ON resource_chunks');
  await knex.raw('DROP FUNCTION fill_resource_chunk_tsv()');
  await knex.raw('ALTER TABLE resource_chunks DROP COLUMN tsv');
  await knex.raw("ALTER TABLE resource_chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED");
  await knex.raw('CREATE INDEX resource_chunks_tsv_idx ON resource_chunks USING GIN (tsv)');
}
