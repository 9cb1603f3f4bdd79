import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceChunks } from '../src/features/resources/ingestion/chunk-staging.js';
import { insertTextResource } from '../src/test/factories.js';
import { createTestContext, type TestContext } from '../src/test/test-app.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

const CONTENT = 'The bakery opens at seven; bread is baked on site every morning, and the bakery closes at noon.';
/** What the generated column held: the vector the database computes from the content. */
const expectedVector = async (content: string) => (await ctx.database.db.raw("SELECT to_tsvector('english', ?::text)::text AS v", [content])).rows[0].v as string;
const storedChunks = async (resourceId: string) => (await ctx.database.db.raw(
  'SELECT content, tsv::text AS tsv, token_count FROM resource_chunks WHERE resource_id = ? ORDER BY ordinal', [resourceId],
)).rows as { content: string; tsv: string; token_count: number | null }[];

describe('20261202P: a chunk\'s full-text vector is filled once, never stale', () => {
  it('an ingested chunk stores the same vector as the generated column did, and its token count from it', async () => {
    const resourceId = await insertTextResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId);
    await replaceChunks(ctx.database.db, { resourceId, organisationId: ctx.org.organisationId }, [{ content: CONTENT, provenance: { kind: 'text' } as never, contentHash: 'h1' }]);
    const [chunk] = await storedChunks(resourceId);
    expect(chunk!.tsv).toBe(await expectedVector(CONTENT));
    // Its words but the stop words ("the", "at", "on", "is", "and"), "bakery" twice.
    expect(chunk!.token_count).toBe(11);
  });

  it('an insert that leaves the vector out gets it, and a changed content gets a new one', async () => {
    const resourceId = await insertTextResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId);
    await ctx.database.db('resource_chunks').insert({ resource_id: resourceId, organisation_id: ctx.org.organisationId, ordinal: 0, content: CONTENT });
    expect((await storedChunks(resourceId))[0]!.tsv).toBe(await expectedVector(CONTENT));
    await ctx.database.db('resource_chunks').where({ resource_id: resourceId }).update({ content: 'Cakes on Sundays.' });
    expect((await storedChunks(resourceId))[0]!.tsv).toBe(await expectedVector('Cakes on Sundays.'));
  });
});
