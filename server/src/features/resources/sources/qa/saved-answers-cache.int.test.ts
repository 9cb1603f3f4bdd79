import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../../db/ids.js';
import { createTestContext, type TestContext } from '../../../../test/test-app.js';
import { insertChunkedResource } from '../../../chat/chat-test-fixtures.js';
import { QaPairsRepository } from './qa-pairs.repository.js';
import { SavedAnswersCache } from './saved-answers-cache.js';

/**
 * The saved answers read on every chat: cached per QA resource under versions the database bumps,
 * so two instances (two caches on one database) see an edit at once, and a chatbot without a QA
 * resource reads nothing.
 */
let ctx: TestContext;
let db: Knex;
let textId: string;
let qaId: string;
const pairIds = [newId(), newId()];

/** A cache whose repository reads are counted, and the database queries it makes. */
function instance() {
  const repository = new QaPairsRepository(db);
  const counted = { reads: 0, indexed: (organisationId: string, ids: readonly string[]) => { counted.reads += 1; return repository.indexed(organisationId, ids); } };
  return { cache: new SavedAnswersCache(db, counted), counted };
}

async function queriesDuring(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const listener = () => { count += 1; };
  db.on('query', listener);
  try {
    await run();
  } finally {
    db.off('query', listener);
  }
  return count;
}

beforeAll(async () => {
  ctx = await createTestContext();
  db = ctx.database.db;
  const org = ctx.org.organisationId;
  textId = await insertChunkedResource(db, org, ctx.org.userId, 'ferry.txt', ['The ferry leaves every hour from 7am.']);
  qaId = newId();
  await db('resources').insert({ id: qaId, organisation_id: org, creator: ctx.org.userId, file_name: 'Ferry answers', type: 'QA', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
  const pairs = [
    { id: pairIds[0]!, questions: ['Can I take my bike?'], answer: 'Bikes travel free on the lower deck.' },
    { id: pairIds[1]!, questions: ['Are dogs allowed?'], answer: 'Dogs on a lead are welcome.' },
  ];
  await db('resource_qa_pairs').insert(pairs.map((pair, position) => ({ ...pair, questions: JSON.stringify(pair.questions), organisation_id: org, resource_id: qaId, position })));
  await db('resource_chunks').insert(pairs.map((pair, ordinal) => ({
    resource_id: qaId, organisation_id: org, ordinal, content: `${pair.questions[0]}\n\n${pair.answer}`, provenance: JSON.stringify({ pairId: pair.id }),
  })));
});
afterAll(async () => { await ctx?.close(); });

describe('SavedAnswersCache', () => {
  it('reads nothing for a chatbot whose resources it knows hold no QA resource', async () => {
    const { cache, counted } = instance();
    expect(await cache.indexed(ctx.org.organisationId, [textId])).toEqual([]);
    expect(await queriesDuring(() => cache.indexed(ctx.org.organisationId, [textId]))).toBe(0);
    expect(counted.reads).toBe(0);
  });

  it('reads the pairs once, then only the versions, and sees an edit made through another instance at once', async () => {
    const { cache, counted } = instance();
    const other = instance();
    const org = ctx.org.organisationId;
    const answers = async () => (await cache.indexed(org, [textId, qaId])).map((pair) => pair.answer);
    expect(await answers()).toEqual(['Bikes travel free on the lower deck.', 'Dogs on a lead are welcome.']);
    expect(await queriesDuring(answers)).toBe(1);
    expect(counted.reads).toBe(1);

    await other.cache.indexed(org, [qaId]);
    await db('resource_qa_pairs').where({ id: pairIds[0] }).update({ answer: 'Bikes travel free; tell the crew when you board.' });
    expect(await answers()).toEqual(['Bikes travel free; tell the crew when you board.', 'Dogs on a lead are welcome.']);
    expect((await other.cache.indexed(org, [qaId]))[0]!.answer).toBe('Bikes travel free; tell the crew when you board.');
    expect(counted.reads).toBe(2);

    await db('resources').where({ id: qaId }).update({ file_name: 'Ferry FAQ' });
    expect((await cache.indexed(org, [qaId])).map((pair) => pair.resourceName)).toEqual(['Ferry FAQ', 'Ferry FAQ']);
    // A pair whose chunk a re-index dropped no longer answers.
    await db('resource_chunks').where({ resource_id: qaId, ordinal: 1 }).delete();
    expect(await answers()).toEqual(['Bikes travel free; tell the crew when you board.']);
  });

  it('keeps to the organisation', async () => {
    const other = await ctx.newOrganisation();
    expect(await instance().cache.indexed(other.organisationId, [qaId])).toEqual([]);
  });
});
