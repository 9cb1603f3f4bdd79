import { ChatbotListSchema, ChatbotSchema, ErrorBodySchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID, insertTextResource } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext({ plan: { models: ['alpha-4o-mini', 'beta-haiku-4.5'] } }); });
afterAll(async () => { await ctx?.close(); });

async function create(body: Record<string, unknown>) {
  const res = await ctx.api.post('/v1/chatbot').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ChatbotSchema.parse(res.body);
}

async function expect400(body: Record<string, unknown>, message: string, method: 'post' | 'put' = 'post', path = '/v1/chatbot') {
  const res = await ctx.api[method](path).send(body);
  expect(res.status).toBe(400);
  expect(ErrorBodySchema.parse(res.body)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect(res.body.message).toContain(message);
}

describe('POST /v1/chatbot', () => {
  it('creates a chatbot from a name alone, with the contract defaults', async () => {
    const chatbot = await create({ name: 'Support' });
    expect(chatbot).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Support', welcomeMessage: 'Hi! How can I help you today?',
      createdAt: expect.any(Number), creator: ctx.org.userId, organisation: ctx.org.organisationId, resources: [],
      chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF',
      secondaryBackgroundColor: '#F6F7F8', showBadge: false, enabledEmoji: false, model: 'alpha-4o-mini',
      accessLevel: 'PUBLIC', tags: [],
    });
  });

  it('stores every field and never returns personality, tone or password', async () => {
    const resourceId = await insertTextResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId);
    const chatbot = await create({
      name: 'Full', resourceIds: [resourceId], showBadge: true, model: 'beta-haiku-4.5', accessLevel: 'PRIVATE',
      welcomeMessage: 'Hello', chatbotMessageColor: '#112233', userMessageColor: '#abc', conversationBackgroundColor: '#000000',
      secondaryBackgroundColor: '#FFFFFF', gradientColors: ['#111', '#222', '#333', '#444'], enabledEmoji: true,
      personalityType: 'CUSTOM', toneType: 'CUSTOM', customSystemPrompt: 'Answer like a pirate.',
      restrictAnswersToResourcesContentResponse: 'I do not know.', tags: ['a', 'b'], password: 'Secret1!x',
      websiteIntegration: { allowedDomains: ['Example.com', '*.shop.example'], bubblePopupMessages: ['Hi there'], welcomeHeaderTitle: 'Ask us' },
    });
    expect(chatbot).toMatchObject({
      resources: [resourceId], showBadge: true, model: 'beta-haiku-4.5', accessLevel: 'PRIVATE', welcomeMessage: 'Hello',
      gradientColors: ['#111', '#222', '#333', '#444'], enabledEmoji: true, customSystemPrompt: 'Answer like a pirate.',
      restrictAnswersToResourcesContentResponse: 'I do not know.', tags: ['a', 'b'],
      websiteIntegration: { allowedDomains: ['example.com', '*.shop.example'], bubbleAlignment: 'right', bubblePopupMessages: ['Hi there'], welcomeHeaderTitle: 'Ask us' },
    });
    const stored = (await ctx.api.get(`/v1/chatbot/${chatbot.id}`)).body;
    for (const hidden of ['personalityType', 'toneType', 'password', 'passwordHash']) expect(stored).not.toHaveProperty(hidden);
    expect(JSON.stringify(stored)).not.toContain('Secret1!x');
  });

  it.each([
    [{}, 'name is required'],
    [{ name: 42 }, 'name must be a string'],
    [{ name: '   ' }, 'name must not be empty'],
    [{ name: 'x', foo: 1 }, 'property foo should not exist'],
    [{ name: 'x', chatbotMessageColor: 'red' }, 'chatbotMessageColor must be a hex color (#RGB or #RRGGBB)'],
    [{ name: 'x', userMessageColor: '#12345' }, 'userMessageColor must be a hex color (#RGB or #RRGGBB)'],
    [{ name: 'x', gradientColors: ['#111', '#222', '#333'] }, 'gradientColors must contain exactly 4 colors'],
    [{ name: 'x', gradientColors: ['#111', '#222', '#333', 'blue'] }, 'gradientColors[3] must be a hex color (#RGB or #RRGGBB)'],
    [{ name: 'x', model: 'gpt-4' }, 'model must be one of: alpha-4o-mini, alpha-5-mini, alpha-realtime, alpha-4o-mini-realtime-preview, beta-sonnet-4.6, beta-haiku-4.5, gamma-3-pro, gamma-3-flash'],
    [{ name: 'x', accessLevel: 'SECRET' }, 'accessLevel must be one of: PUBLIC, PRIVATE, PROTECTED'],
    [{ name: 'x', showBadge: 'yes' }, 'showBadge must be a boolean'],
    [{ name: 'x', customSystemPrompt: 'Be brief.' }, 'customSystemPrompt is allowed only when personalityType and toneType are both CUSTOM'],
    [{ name: 'x', personalityType: 'CUSTOM', customSystemPrompt: 'Be brief.' }, 'customSystemPrompt is allowed only when personalityType and toneType are both CUSTOM'],
    [{ name: 'x', accessLevel: 'PRIVATE' }, 'password is required when accessLevel is PRIVATE'],
    [{ name: 'x', password: 'Sh0rt!' }, 'password must be at least 8 characters'],
    [{ name: 'x', password: 'nouppercase1!' }, 'password must contain an upper-case letter'],
    [{ name: 'x', password: 'NOLOWERCASE1!' }, 'password must contain a lower-case letter'],
    [{ name: 'x', password: 'NoDigits!!' }, 'password must contain a digit'],
    [{ name: 'x', password: 'NoSpecial12' }, 'password must contain a special character'],
    [{ name: 'x', resourceIds: ['not-an-id'] }, 'resourceIds[0] must be a 24-character lower-case hex id'],
    [{ name: 'x', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags must contain at most 50 tags'],
    [{ name: 'x', websiteIntegration: { allowedDomains: ['https://example.com/'] } }, 'websiteIntegration.allowedDomains[0] must be a host name such as example.com or *.example.com'],
    [{ name: 'x', websiteIntegration: { bubbleAlignment: 'center' } }, 'websiteIntegration.bubbleAlignment must be one of: left, right'],
    [{ name: 'x', websiteIntegration: { bubblePopupMessages: ['1', '2', '3', '4', '5', '6'] } }, 'websiteIntegration.bubblePopupMessages must contain at most 5 messages'],
    [{ name: 'x', websiteIntegration: { colour: 'red' } }, 'property websiteIntegration.colour should not exist'],
  ])('answers 400 for %j', async (body, message) => {
    await expect400(body, message);
  });

  it('answers 400 for malformed JSON and for a body that is not JSON', async () => {
    const malformed = await ctx.api.post('/v1/chatbot').set('content-type', 'application/json').send('{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ statusCode: 400, message: ['body must be valid JSON'], error: 'Bad Request' });
    const text = await ctx.api.post('/v1/chatbot').set('content-type', 'text/plain').send('name=x');
    expect(text.status).toBe(400);
    expect(text.body.message).toEqual(['body must be JSON (Content-Type: application/json)']);
    const array = await ctx.api.post('/v1/chatbot').send([1]);
    expect(array.status).toBe(400);
    expect(array.body.message).toEqual(['body must be an object']);
  });

  it('answers 404 for a resource that does not exist or is another organisation\'s', async () => {
    const other = await ctx.newOrganisation();
    const foreign = await insertTextResource(ctx.database.db, other.organisationId, other.userId);
    for (const id of [ABSENT_ID, foreign]) {
      const res = await ctx.api.post('/v1/chatbot').send({ name: 'x', resourceIds: [id] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: [`resource ${id} not found`], error: 'Not Found' });
    }
  });

  it('answers 403 for a model outside the plan', async () => {
    const res = await ctx.api.post('/v1/chatbot').send({ name: 'x', model: 'gamma-3-pro' });
    expect(res.status).toBe(403);
    expect(res.body.message[0]).toMatch(/model gamma-3-pro is not included in your plan/);
  });
});

describe('GET /v1/chatbot/all and /v1/chatbot/{id}', () => {
  it('lists the organisation\'s chatbots newest first and nobody else\'s', async () => {
    const other = await ctx.newOrganisation();
    await other.api.post('/v1/chatbot').send({ name: 'Theirs' }).expect(201);
    const first = await create({ name: 'First' });
    const second = await create({ name: 'Second' });
    const list = ChatbotListSchema.parse((await ctx.api.get('/v1/chatbot/all').expect(200)).body);
    expect(list.map((c) => c.name)).not.toContain('Theirs');
    expect(list.findIndex((c) => c.id === second.id)).toBeLessThan(list.findIndex((c) => c.id === first.id));
    expect((await other.api.get('/v1/chatbot/all')).body.map((c: { name: string }) => c.name)).toEqual(['Theirs']);
  });

  it('gets a chatbot; 400 for a malformed id; 404 for an absent or another organisation\'s id', async () => {
    const mine = await create({ name: 'Mine' });
    expect((await ctx.api.get(`/v1/chatbot/${mine.id}`).expect(200)).body).toEqual(mine);
    const malformed = await ctx.api.get('/v1/chatbot/123');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toEqual(['id must be a 24-character lower-case hex id']);
    await ctx.api.get(`/v1/chatbot/${ABSENT_ID}`).expect(404);
    const other = await ctx.newOrganisation();
    const theirs = (await other.api.post('/v1/chatbot').send({ name: 'Theirs' })).body;
    const res = await ctx.api.get(`/v1/chatbot/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: [`chatbot ${theirs.id} not found`], error: 'Not Found' });
  });
});

describe('authentication', () => {
  it('answers 401 without a key, with an unknown key and with a revoked key', async () => {
    const missing = await ctx.anonymous.get('/v1/chatbot/all');
    expect(missing.status).toBe(401);
    expect(ErrorBodySchema.parse(missing.body).error).toBe('Unauthorized');
    expect((await ctx.anonymous.get('/v1/chatbot/all').set('x-api-key', 'pk_nope')).status).toBe(401);
    const other = await ctx.newOrganisation();
    await other.api.get('/v1/chatbot/all').expect(200);
    await ctx.services.organisations.revokeKey(other.keyId);
    expect((await other.api.get('/v1/chatbot/all')).status).toBe(401);
    expect((await other.api.post('/v1/chatbot').send({ name: 'x' })).status).toBe(401);
  });
});
