import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChunkedResource } from '../features/chat/chat-test-fixtures.js';
import { ChatbotsRepository } from '../features/chatbots/chatbots.repository.js';
import { retrieveChunks } from '../features/resources/retrieve-chunks.js';
import { UsageRepository } from '../features/usage/usage.repository.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { TEST_POSTGRES_URL } from '../test/test-database.js';
import { openDatabase, type Database } from './knex.js';

let ctx: TestContext;
let chatbotId: string;
let resourceId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  resourceId = await insertChunkedResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'garden.txt', [
    'Tomatoes need six hours of sun and deep watering twice a week.',
    'Basil grows well next to tomatoes and keeps some pests away.',
  ]);
  chatbotId = (await ctx.api.post('/v1/chatbot').send({ name: 'Garden', resourceIds: [resourceId] })).body.id as string;
});
afterAll(async () => { await ctx?.close(); });

/** This test's database through a pool of one connection, whose prepared statements can then be listed (PGlite is one connection already). */
async function oneConnection(namedStatements?: boolean): Promise<Database> {
  if (ctx.database.kind === 'pglite') return { ...ctx.database, close: async () => {} };
  const { name } = (await ctx.database.db.raw('SELECT current_database() AS name')).rows[0] as { name: string };
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return openDatabase({ databaseUrl: url.toString(), poolMax: 1, ...(namedStatements === undefined ? {} : { namedStatements }) });
}

/** Runs a chat question's queries: its chatbot (by the API and by the widget), the message count, the search and the passages read. */
async function askQuestion(database: Database): Promise<void> {
  const { organisationId } = ctx.org;
  const chatbots = new ChatbotsRepository(database.db);
  expect((await chatbots.find(organisationId, chatbotId))?.resourceIds).toEqual([resourceId]);
  expect((await chatbots.findPublic(chatbotId))?.name).toBe('Garden');
  const usage = new UsageRepository(database.db);
  expect(await usage.incrementMessagesBy(organisationId, '2026-11', 1, undefined)).toBe(true);
  expect(await usage.incrementMessagesBy(organisationId, '2026-11', 1, 1_000)).toBe(true);
  const found = await retrieveChunks(database.db, organisationId, [resourceId], 'how much sun do tomato plants need', 1);
  expect(found.map((chunk) => chunk.content)).toEqual(['Tomatoes need six hours of sun and deep watering twice a week.']);
}

async function preparedStatements(database: Database): Promise<string[]> {
  return ((await database.db('pg_prepared_statements').pluck('name')) as string[]).filter((name) => name.startsWith('parley_')).sort();
}

describe('named prepared statements', () => {
  it('prepare the hot queries of a question once per connection on a PostgreSQL server (never on PGlite)', async () => {
    const database = await oneConnection();
    try {
      await askQuestion(database);
      // Asked again with other values: the same statements serve, nothing is prepared twice.
      await askQuestion(database);
      expect(await preparedStatements(database)).toEqual(database.kind === 'pglite' ? [] : [
        'parley_chatbot_by_id', 'parley_chosen_passages', 'parley_count_messages', 'parley_count_messages_within_limit',
        'parley_public_chatbot_by_id', 'parley_search_scope',
      ]);
    } finally {
      await database.close();
    }
  });

  it('are not used when turned off (a pooler in transaction mode that does not support them)', async () => {
    const database = await oneConnection(false);
    try {
      await askQuestion(database);
      expect(await preparedStatements(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('keep working when a migration adds a column while an instance runs', async () => {
    const database = await oneConnection();
    try {
      await askQuestion(database);
      await ctx.database.db.raw('ALTER TABLE chatbots ADD COLUMN added_later text');
      await ctx.database.db.raw('ALTER TABLE resource_chunks ADD COLUMN added_later text');
      await askQuestion(database);
    } finally {
      await ctx.database.db.raw('ALTER TABLE chatbots DROP COLUMN IF EXISTS added_later');
      await ctx.database.db.raw('ALTER TABLE resource_chunks DROP COLUMN IF EXISTS added_later');
      await database.close();
    }
  });
});
