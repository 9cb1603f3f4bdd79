import { AuditPageSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signInMember } from '../../test/member-sessions.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CONSOLE_SIGN_IN_RATE_LIMIT: '1000', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '1000' } });
});
afterAll(async () => { await ctx?.close(); });

describe('the audit log', () => {
  it('records who changed chatbots, knowledge, members and keys, newest first, a page at a time', async () => {
    const owner = await addMember(ctx, 'OWNER');
    const session = await signInMember(ctx.url, owner.email);
    const chatbot = (await session.post('/v1/chatbot').send({ name: 'Front desk' }).expect(201)).body;
    await session.put(`/v1/chatbot/${chatbot.id}`).send({ name: 'Front desk 2' }).expect(200);
    await session.put('/v1/chatbot/0123456789abcdef01234567').send({ name: 'Nobody' }).expect(404);
    const resource = (await ctx.api.post('/v1/resource/text').send({ name: 'Hours', content: 'We open at nine.' }).expect(201)).body;
    await session.post('/v1/member/invitation').send({ email: 'new@example.com', role: 'AGENT' }).expect(201);
    await session.post('/v1/chatbot/chat').send({ chatbotId: chatbot.id, conversation: [{ text: 'Hi', fromUser: true }] });
    await session.delete(`/v1/chatbot/${chatbot.id}`).expect(200);

    const page = AuditPageSchema.parse((await session.get('/v1/audit/all').expect(200)).body);
    expect(page.events.map((event) => [event.action, event.actor.name, event.targetName])).toEqual([
      ['deleteChatbot', expect.stringMatching(/^OWNER /), 'Front desk 2'],
      ['inviteMember', expect.stringMatching(/^OWNER /), 'new@example.com'],
      ['createTextResource', 'API key "default"', 'Hours'],
      ['updateChatbot', expect.stringMatching(/^OWNER /), 'Front desk 2'],
      ['createChatbot', expect.stringMatching(/^OWNER /), 'Front desk'],
    ]);
    expect(page.events[0]).toMatchObject({ actor: { memberId: owner.id }, targetType: 'Chatbots', targetId: chatbot.id });
    expect(page.events[2]).toMatchObject({ targetType: 'Resources', targetId: resource.id });
    expect(page.events[2]!.actor.memberId).toBeUndefined();

    const first = AuditPageSchema.parse((await ctx.api.get('/v1/audit/all?limit=2').expect(200)).body);
    expect(first.events.map((event) => event.action)).toEqual(['deleteChatbot', 'inviteMember']);
    const second = AuditPageSchema.parse((await ctx.api.get(`/v1/audit/all?limit=2&cursor=${first.nextCursor}`).expect(200)).body);
    expect(second.events.map((event) => event.action)).toEqual(['createTextResource', 'updateChatbot']);
    await ctx.api.get('/v1/audit/all?cursor=not-a-cursor').expect(400);
    await ctx.api.get('/v1/audit/all?limit=0').expect(400);

    const other = await ctx.newOrganisation();
    expect((await other.api.get('/v1/audit/all').expect(200)).body.events).toEqual([]);
  });
});
