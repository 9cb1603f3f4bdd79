import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { replaceChunkTexts } from './resources.test-support.js';
import { fuseByReciprocalRank, passagesOf, retrieveChunks } from './retrieve-chunks.js';
import { synonymsOf } from '../../providers/llm/local/synonyms.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

async function indexText(name: string, texts: string[]): Promise<string> {
  const id = newId();
  const { db } = ctx.database;
  await db('resources').insert({ id, organisation_id: ctx.org.organisationId, creator: ctx.org.userId, file_name: name, type: 'TEXT', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
  await replaceChunkTexts(db, { resourceId: id, organisationId: ctx.org.organisationId }, texts);
  return id;
}

describe('retrieveChunks', () => {
  it('ranks the chunk with the question\'s rare words above chunks repeating its common ones', async () => {
    const ids = [
      await indexText('islands', ['An island is land surrounded by water. Every island differs; island life is island life on any island.']),
      await indexText('quokkas', ['Quokkas live on Rottnest Island, off the coast of Western Australia.']),
      await indexText('coasts', ['The coast of an island has beaches. Coasts change with tides.']),
    ];
    const found = await retrieveChunks(ctx.database.db, ctx.org.organisationId, ids, 'On which island do quokkas live?', 3);
    expect(found.map((chunk) => chunk.fileName)).toEqual(['quokkas', 'islands', 'coasts']);
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
  });

  it('prefers the chunk holding the question\'s words as a phrase', async () => {
    const ids = [
      await indexText('scattered', ['Super fans won 50 bowl prizes.']),
      await indexText('phrase', ['In Santa Clara, after a long and tiring season, the Denver Broncos won Super Bowl 50 with a strong defence.']),
    ];
    const found = await retrieveChunks(ctx.database.db, ctx.org.organisationId, ids, 'Which team won Super Bowl 50?', 2);
    expect(found.map((chunk) => chunk.fileName)).toEqual(['phrase', 'scattered']);
  });

  it('finds the chunk that says the question another way through its synonyms, counted below its own words', async () => {
    const ids = [
      await indexText('returns', ['Returns: unused candles can be returned within 30 days for a refund.']),
      await indexText('care', ['Trim the wick before you light the candle again.']),
    ];
    const question = 'Can I send my candle back?';
    const margin = async (synonyms?: string) => {
      const found = await retrieveChunks(ctx.database.db, ctx.org.organisationId, ids, question, 2, { synonyms });
      const score = (name: string) => found.find((chunk) => chunk.fileName === name)!.score;
      return { first: found[0]!.fileName, margin: score('returns') - score('care') };
    };
    // Both hold "candle"; only the synonyms of "send back" tell the returns chunk apart.
    const alone = await margin();
    const withSynonyms = await margin(synonymsOf(question));
    expect(withSynonyms.first).toBe('returns');
    expect(withSynonyms.margin).toBeGreaterThan(Math.max(0, alone.margin) + 0.5);
  });

  it('finds nothing for a question of stop words only, or outside the given resources', async () => {
    const id = await indexText('tea', ['Green tea is steamed or pan-fired.']);
    expect(await retrieveChunks(ctx.database.db, ctx.org.organisationId, [id], 'what is it?', 5)).toEqual([]);
    expect(await retrieveChunks(ctx.database.db, ctx.org.organisationId, [], 'green tea', 5)).toEqual([]);
    const other = await indexText('coffee', ['Coffee beans are roasted.']);
    expect((await retrieveChunks(ctx.database.db, ctx.org.organisationId, [other], 'green tea', 5))).toEqual([]);
  });

  it('still ranks chunks written without collection statistics', async () => {
    const id = newId();
    const { db } = ctx.database;
    await db('resources').insert({ id, organisation_id: ctx.org.organisationId, creator: ctx.org.userId, file_name: 'raw', type: 'TEXT', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
    await db('resource_chunks').insert([
      { resource_id: id, organisation_id: ctx.org.organisationId, ordinal: 0, content: 'Pangolins eat ants and termites.' },
      { resource_id: id, organisation_id: ctx.org.organisationId, ordinal: 1, content: 'Aardvarks also eat termites at night.' },
    ]);
    const found = await retrieveChunks(db, ctx.org.organisationId, [id], 'What do pangolins eat?', 2);
    expect(found.map((chunk) => chunk.content)).toEqual(['Pangolins eat ants and termites.', 'Aardvarks also eat termites at night.']);
  });
});

describe('retrieveChunks with the instance\'s passages', () => {
  /** Runs `work` and returns the statements that read passages from the chunks table. */
  async function passageReads(work: () => Promise<unknown>): Promise<number> {
    const { db } = ctx.database;
    let reads = 0;
    const record = (query: { sql: string }) => { if (/"content"/.test(query.sql)) reads++; };
    db.on('query', record);
    try {
      await work();
    } finally {
      db.off('query', record);
    }
    return reads;
  }

  it('reads a chosen passage once, then answers from the instance\'s copy with the resource\'s current name', async () => {
    const id = await indexText('otters', ['Sea otters hold hands while they sleep.', 'Otters use stones to open shells.']);
    const ask = () => retrieveChunks(ctx.database.db, ctx.org.organisationId, [id], 'Why do sea otters hold hands?', 2);
    let first: Awaited<ReturnType<typeof ask>> = [];
    expect(await passageReads(async () => { first = await ask(); })).toBe(1);
    expect(first[0]).toMatchObject({ resourceId: id, fileName: 'otters', content: 'Sea otters hold hands while they sleep.' });
    // A rename changes no chunk: the passage is not read again, and it carries the new name.
    await ctx.database.db('resources').where({ id }).update({ file_name: 'marine mammals' });
    let again: Awaited<ReturnType<typeof ask>> = [];
    expect(await passageReads(async () => { again = await ask(); })).toBe(0);
    expect(again.map(({ fileName, content, id: chunkId }) => [fileName, content, chunkId])).toEqual(first.map(({ content, id: chunkId }) => ['marine mammals', content, chunkId]));
  });

  it('serves a kept passage to its own organisation only', async () => {
    const id = await indexText('puffins', ['Puffins mate for life.']);
    const [chunk] = await retrieveChunks(ctx.database.db, ctx.org.organisationId, [id], 'Do puffins mate for life?', 1);
    const other = await ctx.services.organisations.createOrganisation({ name: 'Another shop' });
    expect([...(await passagesOf(ctx.database.db, other.organisationId, [chunk!.id])).keys()]).toEqual([]);
    expect((await passagesOf(ctx.database.db, ctx.org.organisationId, [chunk!.id])).get(chunk!.id)?.content).toBe('Puffins mate for life.');
  });

  it('serves a re-indexed resource\'s new passages, never the copies of its old ones', async () => {
    const id = await indexText('kiwis', ['Kiwis lay the largest eggs for their size.']);
    const ask = () => retrieveChunks(ctx.database.db, ctx.org.organisationId, [id], 'How big are kiwi eggs?', 2);
    expect((await ask()).map((chunk) => chunk.content)).toEqual(['Kiwis lay the largest eggs for their size.']);
    await replaceChunkTexts(ctx.database.db, { resourceId: id, organisationId: ctx.org.organisationId }, ['A kiwi egg weighs a fifth of its mother.']);
    expect((await ask()).map((chunk) => chunk.content)).toEqual(['A kiwi egg weighs a fifth of its mother.']);
  });
});

describe('retrieveChunks over a large index', () => {
  it('estimates the frequency of very common words and still ranks by the rare ones', async () => {
    const filler = Array.from({ length: 1200 }, (_, i) => `Harbour report ${i}: the harbour was busy and the harbour master counted boats.`);
    const big = await indexText('harbour log', filler);
    const answer = await indexText('lighthouse', ['The harbour lighthouse keeper was Ida Lewis.']);
    const found = await retrieveChunks(ctx.database.db, ctx.org.organisationId, [big, answer], 'Who kept the harbour lighthouse?', 3);
    expect(found[0]!.fileName).toBe('lighthouse');
    // A question of common words only still answers (candidates of its rarest word).
    expect(await retrieveChunks(ctx.database.db, ctx.org.organisationId, [big], 'busy harbour boats', 2)).toHaveLength(2);
  });
});

describe('fuseByReciprocalRank', () => {
  it('favours items ranked well in both lists', () => {
    const fused = fuseByReciprocalRank([
      [{ id: 1, score: 9 }, { id: 2, score: 8 }, { id: 3, score: 7 }],
      [{ id: 2, score: 0.9 }, { id: 4, score: 0.8 }, { id: 5, score: 0.7 }],
    ]);
    expect(fused.map((row) => row.id)).toEqual([2, 1, 4, 3, 5]);
  });
});
