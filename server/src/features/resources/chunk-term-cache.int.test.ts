import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { ChunkTermCache } from './chunk-term-cache.js';
import { holdsPhrase } from './rank-bm25.js';
import { replaceChunkTexts } from './resources.test-support.js';
import { retrieveChunks } from './retrieve-chunks.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

async function createResource(name: string): Promise<string> {
  const id = newId();
  await ctx.database.db('resources').insert({ id, organisation_id: ctx.org.organisationId, creator: ctx.org.userId, file_name: name, type: 'TEXT', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
  return id;
}

/** Replaces the resource's chunks as ingestion and re-syncs do. */
async function index(id: string, texts: string[]): Promise<void> {
  await replaceChunkTexts(ctx.database.db, { resourceId: id, organisationId: ctx.org.organisationId }, texts);
}

const ask = async (ids: string[], question: string) =>
  (await retrieveChunks(ctx.database.db, ctx.org.organisationId, ids, question, 3)).map((chunk) => chunk.content);

describe('retrieval\'s chunk term cache', () => {
  it('answers from the new chunks once a resource is re-indexed', async () => {
    const id = await createResource('opening hours');
    await index(id, ['The museum opens at nine on weekdays.']);
    expect(await ask([id], 'When does the museum open?')).toEqual(['The museum opens at nine on weekdays.']);
    await index(id, ['Guided tours start at the north gate.']);
    expect(await ask([id], 'When does the museum open?')).toEqual([]);
    expect(await ask([id], 'Where do guided tours start?')).toEqual(['Guided tours start at the north gate.']);
  });

  it('forgets a deleted resource', async () => {
    const id = await createResource('tides');
    await index(id, ['Spring tides follow the full moon.']);
    expect(await ask([id], 'When are spring tides?')).toHaveLength(1);
    const auth = (await ctx.services.organisations.authenticate(ctx.org.apiKey))!;
    const cached = ChunkTermCache.of(ctx.database.db).size;
    await ctx.services.resources.remove(auth, id);
    expect(await ask([id], 'When are spring tides?')).toEqual([]);
    expect(ChunkTermCache.of(ctx.database.db).size).toBe(cached - 1);
  });

  it('sees chunks written by any path, not only ingestion\'s', async () => {
    const id = await createResource('raw');
    await index(id, ['Otters hold hands while they sleep.']);
    expect(await ask([id], 'Which animals hold hands?')).toEqual(['Otters hold hands while they sleep.']);
    await ctx.database.db('resource_chunks').insert({ resource_id: id, organisation_id: ctx.org.organisationId, ordinal: 5, content: 'Sea otters use stones as tools.' });
    expect(await ask([id], 'Which stones are tools?')).toEqual(['Sea otters use stones as tools.']);
    await ctx.database.db('resource_chunks').where({ resource_id: id }).update({ content: 'Beavers build dams from branches.' });
    expect(await ask([id], 'Which animals hold hands?')).toEqual([]);
  });

  it('loads a resource once for questions asked at the same moment', async () => {
    const id = await createResource('bees');
    await index(id, ['Honey bees dance to show where flowers are.']);
    const loads: string[] = [];
    const onQuery = (query: { sql: string }) => { if (query.sql.includes('tsv::text')) loads.push(query.sql); };
    ctx.database.db.on('query', onQuery);
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => ask([id], 'Why do bees dance?')));
      expect(answers.every((answer) => answer.length === 1)).toBe(true);
    } finally {
      ctx.database.db.off('query', onQuery);
    }
    expect(loads).toHaveLength(1);
  });

  it('reads the scope of questions over the same resources that arrive together in one round trip, each with its own words', async () => {
    const id = await createResource('garden');
    await index(id, ['Roses want six hours of sun.', 'Ferns grow in deep shade.', 'Tulip bulbs go in before the first frost.']);
    await ask([id], 'warm the cache');
    const scopes: string[] = [];
    const onQuery = (query: { sql: string }) => { if (query.sql.includes('to_tsvector')) scopes.push(query.sql); };
    ctx.database.db.on('query', onQuery);
    try {
      const answers = await Promise.all(['How much sun do roses want?', 'Where do ferns grow?', 'When do tulip bulbs go in?', 'How much sun do roses want?']
        .map((question) => ask([id], question)));
      expect(answers.map((answer) => answer[0])).toEqual([
        'Roses want six hours of sun.', 'Ferns grow in deep shade.', 'Tulip bulbs go in before the first frost.', 'Roses want six hours of sun.',
      ]);
    } finally {
      ctx.database.db.off('query', onQuery);
    }
    // The first question's read, then one for the three that arrived while it was in flight.
    expect(scopes).toHaveLength(2);
  });

  it('never searches another organisation\'s resource, cached or not', async () => {
    const id = await createResource('secret');
    await index(id, ['The vault code is kept by the night porter.']);
    expect(await ask([id], 'Who keeps the vault code?')).toHaveLength(1);
    const other = await ctx.services.organisations.createOrganisation({ name: 'Other' });
    const cached = ChunkTermCache.of(ctx.database.db).size;
    expect(await retrieveChunks(ctx.database.db, other.organisationId, [id], 'Who keeps the vault code?', 3)).toEqual([]);
    expect(ChunkTermCache.of(ctx.database.db).size).toBe(cached);
  });

  it('matches phrases from its positions exactly as the database\'s phrase queries do', async () => {
    const id = await createResource('phrases');
    await index(id, [
      'Super Bowl 50 was played in Santa Clara. The Super Bowl is the last game; bowl after bowl, super fans cheer.',
      'It is the Duchy of Normandy, not the duchy in Normandy, that the dukes of Normandy held.',
      'A well-known fact is well known: the state-of-the-art cafe opens at 9:30, and 9 or 30 guests queue.',
      'Don\'t stop. Stop, don\'t. The rain in Spain stays mainly in the plain, the plain rain.',
    ]);
    const cache = ChunkTermCache.of(ctx.database.db);
    const [resource] = (await cache.scope(ctx.org.organisationId, [id], 'anything')).resources;
    const quote = (lexeme: string) => `'${lexeme.replace(/'/g, "''")}'`;
    let checked = 0, matched = 0;
    for (const [chunk, chunkId] of Array.from(resource!.ids).entries()) {
      const lexemes = (await ctx.database.db.raw('SELECT lexeme FROM resource_chunks, unnest(tsv) WHERE id = ?', [chunkId])).rows.map((row: { lexeme: string }) => row.lexeme) as string[];
      const cases = lexemes.flatMap((first) => lexemes.flatMap((second) => [0, 1, 2, 3].map((distance) => ({ first, second, distance }))));
      const result = await ctx.database.db.raw(
        'SELECT p.i, c.tsv @@ p.q::tsquery AS hit FROM resource_chunks c, unnest(?::text[]) WITH ORDINALITY AS p(q, i) WHERE c.id = ? ORDER BY p.i',
        [cases.map(({ first, second, distance }) => `${quote(first)} <${distance}> ${quote(second)}`), chunkId],
      );
      const expected = (result.rows as { hit: boolean }[]).map((row) => row.hit);
      const ranges = (lexeme: string) => cache.postingRanges([resource!], lexeme)[0]!;
      const actual = cases.map(({ first, second, distance }) => holdsPhrase(resource!, chunk, ranges(first), ranges(second), distance));
      expect(actual).toEqual(expected);
      checked += cases.length;
      matched += expected.filter(Boolean).length;
    }
    expect(checked).toBeGreaterThan(1000);
    expect(matched).toBeGreaterThan(20);
  });
});

describe('warming the chunk term cache', () => {
  async function chatbotOn(resourceIds: string[], lastConversationAt?: number): Promise<void> {
    const auth = (await ctx.services.organisations.authenticate(ctx.org.apiKey))!;
    const { id } = await ctx.services.chatbots.create(auth, {
      name: 'Warm', resourceIds, showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi',
      chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8',
      enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [],
    });
    if (lastConversationAt === undefined) return;
    await ctx.database.db('conversations').insert({
      id: newId(), organisation_id: ctx.org.organisationId, chatbot_id: id, created_at: lastConversationAt, updated_at: lastConversationAt,
      messages: '[]', source_type: 'API', source: '{}',
    });
  }

  it('loads the knowledge of the chatbots used last first, within its budget, without loading what is cached', async () => {
    const [quiet, busy, unused, shared] = await Promise.all(['quiet', 'busy', 'unused', 'shared'].map((name) => createResource(name)));
    for (const id of [quiet!, busy!, unused!, shared!]) await index(id, [`The ${id} notes say the harbour opens at dawn.`]);
    // Far in the future, so these come before any other test's chatbots.
    const soon = Date.now() + 1e9;
    await chatbotOn([quiet!], soon);
    await chatbotOn([busy!, shared!], soon + 1_000);
    await chatbotOn([shared!]);
    const ours = (ids: string[]) => ids.filter((id) => [quiet, busy, unused, shared].includes(id));
    const tokens = async (id: string) => Number((await ctx.database.db('resources').where({ id }).first()).chunk_tokens);
    const cache = ChunkTermCache.of(ctx.database.db);
    const loads: string[] = [];
    const onQuery = (query: { sql: string; bindings?: unknown[] }) => { if (query.sql.includes('tsv::text')) loads.push(String(query.bindings?.[0])); };
    ctx.database.db.on('query', onQuery);
    try {
      // A resource costs its tokens: the two of the chatbot with the latest conversation fit, the next does not.
      const budget = await tokens(busy!) + await tokens(shared!) + await tokens(quiet!) / 2;
      const latest = [busy!, shared!].sort();
      expect(ours(await cache.warm(budget))).toEqual(latest);
      expect(loads).toEqual(latest);
      // The default budget takes the next one too (never a resource no chatbot uses), and loads only it.
      expect(ours(await cache.warm())).toEqual([...latest, quiet]);
      expect(loads).toEqual([...latest, quiet]);
    } finally {
      ctx.database.db.off('query', onQuery);
    }
  });
});
