import { ChatbotSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { ABSENT_ID, TINY_PNG, insertTextResource } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { verifyChatbotPassword } from './chatbot-password.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext({ plan: { models: ['alpha-4o-mini', 'alpha-5-mini'] } }); });
afterAll(async () => { await ctx?.close(); });

async function create(body: Record<string, unknown> = {}) {
  const res = await ctx.api.post('/v1/chatbot').send({ name: 'Bot', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ChatbotSchema.parse(res.body);
}

function update(id: string, body: Record<string, unknown>) {
  return ctx.api.put(`/v1/chatbot/${id}`).send(body);
}

describe('PUT /v1/chatbot/{id}', () => {
  it('changes only the given fields', async () => {
    const chatbot = await create({ tags: ['keep'] });
    const res = await update(chatbot.id, { name: 'Renamed', showBadge: true, model: 'alpha-5-mini', welcomeMessage: 'Yo' });
    expect(res.status).toBe(200);
    expect(ChatbotSchema.parse(res.body)).toEqual({ ...chatbot, name: 'Renamed', showBadge: true, model: 'alpha-5-mini', welcomeMessage: 'Yo' });
  });

  it('accepts the gradient as a comma-separated string or an array, and removes it with ""', async () => {
    const chatbot = await create();
    expect((await update(chatbot.id, { gradientColors: '#111, #222,#333,#444444' })).body.gradientColors).toEqual(['#111', '#222', '#333', '#444444']);
    expect((await update(chatbot.id, { gradientColors: ['#aaa', '#bbb', '#ccc', '#ddd'] })).body.gradientColors).toEqual(['#aaa', '#bbb', '#ccc', '#ddd']);
    const removed = await update(chatbot.id, { gradientColors: '' });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('gradientColors');
    for (const bad of ['#111,#222,#333', '#111,#222,#333,blue', 7]) {
      const res = await update(chatbot.id, { gradientColors: bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(['gradientColors must be 4 comma-separated hex colors, or "" to remove the gradient']);
    }
  });

  it('allows customSystemPrompt only when the stored personality and tone are CUSTOM', async () => {
    const plain = await create();
    const refused = await update(plain.id, { customSystemPrompt: 'Be terse.' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual(['customSystemPrompt is allowed only when personalityType and toneType are both CUSTOM']);
    const custom = await create({ personalityType: 'CUSTOM', toneType: 'CUSTOM', customSystemPrompt: 'First.' });
    expect((await update(custom.id, { customSystemPrompt: 'Second.' })).body.customSystemPrompt).toBe('Second.');
  });

  it('requires a password to become PRIVATE unless one is stored, and never returns it', async () => {
    const chatbot = await create();
    const refused = await update(chatbot.id, { accessLevel: 'PRIVATE' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual(['password is required when accessLevel is PRIVATE']);
    const weak = await update(chatbot.id, { accessLevel: 'PRIVATE', password: 'weakpassword' });
    expect(weak.status).toBe(400);
    const ok = await update(chatbot.id, { accessLevel: 'PRIVATE', password: 'Str0ng!pass' });
    expect(ok.status).toBe(200);
    expect(ok.body).not.toHaveProperty('password');
    const row = await ctx.database.db('chatbots').where({ id: chatbot.id }).first('password_hash');
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(await verifyChatbotPassword('Str0ng!pass', row.password_hash)).toBe(true);
    expect(await verifyChatbotPassword('wrong', row.password_hash)).toBe(false);
    await update(chatbot.id, { accessLevel: 'PUBLIC' }).expect(200);
    expect((await update(chatbot.id, { accessLevel: 'PRIVATE' })).status).toBe(200);
  });

  it('merges websiteIntegration sub-fields and creates it when absent', async () => {
    const chatbot = await create();
    const first = await update(chatbot.id, { websiteIntegration: { allowedDomains: ['a.example'] } });
    expect(first.body.websiteIntegration).toEqual({ allowedDomains: ['a.example'], bubbleAlignment: 'right', bubblePopupMessages: [] });
    const second = await update(chatbot.id, { websiteIntegration: { bubbleAlignment: 'left', welcomeHeaderTitle: 'Hi' } });
    expect(second.body.websiteIntegration).toEqual({ allowedDomains: ['a.example'], bubbleAlignment: 'left', bubblePopupMessages: [], welcomeHeaderTitle: 'Hi' });
  });

  it('replaces the resources, checking each belongs to the organisation', async () => {
    const chatbot = await create();
    const r1 = await insertTextResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId);
    const r2 = await insertTextResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId);
    expect((await update(chatbot.id, { resourceIds: [r2, r1] })).body.resources).toEqual([r2, r1]);
    expect((await update(chatbot.id, { resourceIds: [r1, ABSENT_ID] })).status).toBe(404);
    expect((await ctx.api.get(`/v1/chatbot/${chatbot.id}`)).body.resources).toEqual([r2, r1]);
  });

  it('clears the restrict answer with "" and answers 400/403/404 like create', async () => {
    const chatbot = await create({ restrictAnswersToResourcesContentResponse: 'Not in my notes.' });
    expect((await update(chatbot.id, { restrictAnswersToResourcesContentResponse: '' })).body).not.toHaveProperty('restrictAnswersToResourcesContentResponse');
    expect((await update(chatbot.id, { personalityType: 'COACH' })).body.message).toEqual(['property personalityType should not exist']);
    expect((await update(chatbot.id, { model: 'gamma-3-pro' })).status).toBe(403);
    expect((await update('nope', { name: 'x' })).status).toBe(400);
    expect((await update(ABSENT_ID, { name: 'x' })).status).toBe(404);
    const other = await ctx.newOrganisation();
    expect((await other.api.put(`/v1/chatbot/${chatbot.id}`).send({ name: 'Stolen' })).status).toBe(404);
    expect((await ctx.api.get(`/v1/chatbot/${chatbot.id}`)).body.name).toBe('Bot');
  });
});

describe('DELETE /v1/chatbot/{id}', () => {
  it('returns the deleted chatbot and removes its conversations, leads and avatar', async () => {
    const chatbot = await create();
    const { db } = ctx.database;
    const now = Date.now();
    await db('conversations').insert({ id: newId(), organisation_id: ctx.org.organisationId, chatbot_id: chatbot.id, created_at: now, updated_at: now, messages: JSON.stringify([]), source_type: 'app', source: JSON.stringify({ type: 'app' }) });
    await db('leads').insert({ id: newId(), organisation_id: ctx.org.organisationId, chatbot_id: chatbot.id, created_at: now, email: 'a@b.example' });
    await ctx.api.put(`/v1/chatbot/avatar/${chatbot.id}`).attach('file', TINY_PNG, 'a.png').expect(200);
    const res = await ctx.api.delete(`/v1/chatbot/${chatbot.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: chatbot.id, name: 'Bot' });
    await ctx.api.get(`/v1/chatbot/${chatbot.id}`).expect(404);
    for (const table of ['conversations', 'leads']) expect(await db(table).where({ chatbot_id: chatbot.id })).toEqual([]);
    expect(await db('chatbot_avatars').where({ chatbot_id: chatbot.id })).toEqual([]);
    await ctx.api.delete(`/v1/chatbot/${chatbot.id}`).expect(404);
  });

  it('answers 400 for a malformed id and 404 for another organisation\'s chatbot', async () => {
    const chatbot = await create();
    expect((await ctx.api.delete('/v1/chatbot/XYZ')).status).toBe(400);
    const other = await ctx.newOrganisation();
    expect((await other.api.delete(`/v1/chatbot/${chatbot.id}`)).status).toBe(404);
    await ctx.api.get(`/v1/chatbot/${chatbot.id}`).expect(200);
  });
});

describe('reading a chatbot under a burst', () => {
  it('reads it once for simultaneous callers, and a caller after an update reads the update', async () => {
    const chatbot = await create({ name: 'Before' });
    const { db } = ctx.services.database;
    const reads: string[] = [];
    const onQuery = (query: { sql: string }) => { if (/from "chatbots" as "c"/.test(query.sql)) reads.push(query.sql); };
    db.on('query', onQuery);
    try {
      const auth = (await ctx.services.organisations.authenticate(ctx.org.apiKey))!;
      const records = await Promise.all(Array.from({ length: 50 }, () => ctx.services.chatbots.getRecord(auth, chatbot.id)));
      expect(new Set(records.map((record) => record.name))).toEqual(new Set(['Before']));
      expect(reads).toHaveLength(1);
      // After an update, the next caller reads the update (single-flight.test.ts covers a read in flight across a write).
      expect((await update(chatbot.id, { name: 'After' })).status).toBe(200);
      expect((await ctx.services.chatbots.getRecord(auth, chatbot.id)).name).toBe('After');
    } finally {
      db.off('query', onQuery);
    }
  });
});
