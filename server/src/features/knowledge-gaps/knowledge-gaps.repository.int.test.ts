import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { insertChunkedResource } from '../chat/chat-test-fixtures.js';
import { retrieveChunks } from '../resources/retrieve-chunks.js';
import { KnowledgeGapsRepository } from './knowledge-gaps.repository.js';

let ctx: TestContext;
let repository: KnowledgeGapsRepository;
let resourceIds: string[];

const QUESTIONS = [
  'How long does a refund take?', 'Do you sell gift cards?', 'Can I return a candle I have burned?', 'what is the weather in Oslo',
  'the and of', '', 'Where is your café & shop?', "Can't I pay with O'Brien's card?", 'Do you deliver to Germany?', 'refunds',
];

beforeAll(async () => {
  ctx = await createTestContext();
  repository = new KnowledgeGapsRepository(ctx.database.db);
  const { organisationId, userId } = ctx.org;
  resourceIds = [
    await insertChunkedResource(ctx.database.db, organisationId, userId, 'refunds.txt', ['Refunds go back the way you paid, within five working days.']),
    await insertChunkedResource(ctx.database.db, organisationId, userId, 'shop.txt', ['Our shop and café are on Mill Lane. Candles are poured by hand.']),
  ];
});
afterAll(async () => { await ctx?.close(); });

describe('KnowledgeGapsRepository.relatedQuestions', () => {
  it('tells in one query, for each question, what full-text retrieval of one passage tells', async () => {
    let queries = 0;
    const count = () => { queries += 1; };
    ctx.database.db.on('query', count);
    const related = await repository.relatedQuestions(ctx.org.organisationId, resourceIds, QUESTIONS);
    ctx.database.db.off('query', count);
    expect(queries).toBe(1);
    const retrieved = await Promise.all(QUESTIONS.map(async (question) => (await retrieveChunks(ctx.database.db, ctx.org.organisationId, resourceIds, question, 1)).length > 0));
    expect(related).toEqual(retrieved);
    expect(related).toEqual([true, false, true, false, false, false, true, false, false, true]);
  });

  it('keeps to the organisation and the resources given', async () => {
    const other = await ctx.newOrganisation();
    expect(await repository.relatedQuestions(other.organisationId, resourceIds, ['How long does a refund take?'])).toEqual([false]);
    expect(await repository.relatedQuestions(ctx.org.organisationId, [], ['How long does a refund take?'])).toEqual([false]);
    expect(await repository.relatedQuestions(ctx.org.organisationId, resourceIds, [])).toEqual([]);
  });
});
