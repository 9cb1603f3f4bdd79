import { ErrorBodySchema, formatIssues, LeadCaptureSchema, LeadListingSchema, LeadSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { HttpError } from '../../errors/http-error.js';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';

let ctx: TestContext;
let chatbot: ChatbotRecord;
beforeAll(async () => {
  ctx = await createTestContext();
  const id = (await ctx.api.post('/v1/chatbot').send({ name: 'Sales' }).expect(201)).body.id;
  chatbot = (await ctx.services.chatbotsRepository.find(ctx.org.organisationId, id))!;
});
afterAll(async () => { await ctx?.close(); });

/** Inserts a lead at a chosen time (capture always stamps now). */
async function insertLeadAt(createdAt: number, email: string, chatbotId = chatbot.id) {
  await ctx.database.db('leads').insert({ id: newId(createdAt), organisation_id: ctx.org.organisationId, chatbot_id: chatbotId, created_at: createdAt, email });
}

describe('LeadsService.capture', () => {
  it('stores a validated lead and returns it without absent fields', async () => {
    const lead = LeadCaptureSchema.parse({ name: ' Jane Doe ', email: 'jane@example.com' });
    const captured = LeadSchema.parse(await ctx.services.leads.capture(chatbot, lead));
    expect(captured).toEqual({ createdAt: expect.any(Number), name: 'Jane Doe', email: 'jane@example.com' });
    const phoneOnly = await ctx.services.leads.capture(chatbot, LeadCaptureSchema.parse({ phone: '+44 20 7946 0958' }));
    expect(phoneOnly).toEqual({ createdAt: expect.any(Number), phone: '+44 20 7946 0958' });
  });

  it('links the lead to one of the chatbot\'s conversations, and answers 404 for anyone else\'s', async () => {
    const conversation = (await ctx.api.post('/v1/conversation').send({ chatbotId: chatbot.id, messages: [] }).expect(201)).body;
    await ctx.services.leads.capture(chatbot, { email: 'linked@example.com' }, conversation.id);
    const row = await ctx.database.db('leads').where({ email: 'linked@example.com' }).first();
    expect(row).toMatchObject({ conversation_id: conversation.id, chatbot_id: chatbot.id, organisation_id: ctx.org.organisationId });
    const otherId = (await ctx.api.post('/v1/chatbot').send({ name: 'Other' }).expect(201)).body.id;
    const other = (await ctx.api.post('/v1/conversation').send({ chatbotId: otherId, messages: [] }).expect(201)).body;
    for (const conversationId of [other.id, ABSENT_ID]) {
      const error = await ctx.services.leads.capture(chatbot, { email: 'x@example.com' }, conversationId).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).statusCode).toBe(404);
    }
    expect(await ctx.database.db('leads').where({ email: 'x@example.com' })).toHaveLength(0);
  });

  it.each([
    [{ name: 'No contact' }, 'body must contain an email or a phone'],
    [{ email: 'not-an-email' }, 'email must be an email address'],
    [{ phone: '12' }, 'phone must be a phone number such as +44 20 7946 0958'],
    [{ phone: '+1 (555) 0' }, 'phone must have 7 to 15 digits'],
    [{ email: 'a@example.com', company: 'x' }, 'property company should not exist'],
  ])('rejects the capture %j before it reaches the service', (body, message) => {
    const parsed = LeadCaptureSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(formatIssues(parsed.error!.issues)).toContain(message);
  });
});

describe('GET /v1/lead/{chatbotId}', () => {
  let listed: string;
  const t0 = Date.UTC(2025, 5, 1);
  beforeAll(async () => {
    listed = (await ctx.api.post('/v1/chatbot').send({ name: 'Listed leads' }).expect(201)).body.id;
    for (let i = 0; i < 4; i++) await insertLeadAt(t0 + i * 1000, `lead${i}@example.com`, listed);
  });

  const emails = (body: unknown) => LeadListingSchema.parse(body).leads.map((lead) => lead.email);

  it('lists the chatbot\'s leads newest first in the listing shape', async () => {
    const res = await ctx.api.get(`/v1/lead/${listed}`).expect(200);
    const chatbotCreatedAt = (await ctx.api.get(`/v1/chatbot/${listed}`)).body.createdAt;
    expect(LeadListingSchema.parse(res.body)).toMatchObject({
      chatbotName: 'Listed leads', startInterval: '1970-01-01T00:00:00.000Z', createdAt: new Date(chatbotCreatedAt).toISOString(),
    });
    expect(res.body.leads[0]).toEqual({ createdAt: t0 + 3000, email: 'lead3@example.com' });
    expect(emails(res.body)).toEqual(['lead3@example.com', 'lead2@example.com', 'lead1@example.com', 'lead0@example.com']);
  });

  it('filters by an inclusive time range, and answers an empty list outside it', async () => {
    expect(emails((await ctx.api.get(`/v1/lead/${listed}?start=${t0 + 1000}&end=${t0 + 2000}`).expect(200)).body))
      .toEqual(['lead2@example.com', 'lead1@example.com']);
    const empty = (await ctx.api.get(`/v1/lead/${listed}?end=${t0 - 1}`).expect(200)).body;
    expect(LeadListingSchema.parse(empty).leads).toEqual([]);
    expect(empty.endInterval).toBe(new Date(t0 - 1).toISOString());
  });

  it.each([
    ['?start=5&end=4', 'start must not be after end'],
    [`?start=${Date.now() + 86_400_000}`, 'start must not be in the future when end is omitted'],
    ['?start=yesterday', 'start must be an integer number of Unix milliseconds'],
    ['?end=1e9', 'end must be an integer number of Unix milliseconds'],
    ['?sources=app', 'property sources should not exist'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await ctx.api.get(`/v1/lead/${listed}${query}`);
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).message).toContain(message);
  });

  it('answers 400 for a malformed id, 404 for an absent chatbot or another organisation\'s', async () => {
    await ctx.api.get('/v1/lead/123').expect(400);
    await ctx.api.get(`/v1/lead/${ABSENT_ID}`).expect(404);
    const other = await ctx.newOrganisation();
    const res = await other.api.get(`/v1/lead/${listed}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: [`chatbot ${listed} not found`], error: 'Not Found' });
  });

  it('requires an API key', async () => {
    await ctx.anonymous.get(`/v1/lead/${listed}`).expect(401);
  });
});
