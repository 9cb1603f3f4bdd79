import { pino } from 'pino';
import {
  notificationEventBodySchema, WebhookDeliveryListSchema, WebhookListSchema, WebhookWithSecretSchema, type NotificationEventType, type WebhookDelivery,
} from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEvents } from '@parley/shared';
import { createServices, type Services } from '../../services.js';
import { SmtpSink } from '../../test/smtp-sink.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { WebhookReceiver } from '../../test/webhook-receiver.js';
import { conversationMailKey } from './notifications.service.js';
import { WebhooksRepository } from './webhooks.repository.js';

const SITE = 'https://shop.example';
let ctx: TestContext;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let hookUrl: string;
/** Instances started by the restart test; they serve the later tests. */
const restarted: Services[] = [];

beforeAll(async () => {
  smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  receiver = new WebhookReceiver();
  hookUrl = await receiver.start();
  // Retries within milliseconds: the backoff's base and ceiling come from the configuration.
  ctx = await createTestContext({ env: {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_MS: '40', SMTP_URL: smtpUrl, MAIL_FROM: 'Parley <parley@test.example>',
  } });
  ctx.startJobs();
});
afterAll(async () => {
  for (const instance of restarted) await instance.worker.stop();
  await ctx?.close();
  await receiver?.close();
  await smtp?.close();
});

const embed = (chatbotId: string, path: string, body: unknown) => ctx.anonymous.post(`/v1/embed/${chatbotId}/${path}`).set('Origin', SITE).send(body as object);

async function addWebhook(events: string[], url = hookUrl) {
  const res = await ctx.api.post('/v1/webhook').send({ url, events, description: 'CRM' });
  expect(res.status).toBe(201);
  const created = WebhookWithSecretSchema.strict().parse(res.body);
  receiver.secret = created.secret;
  return created;
}

async function deliveriesOf(id: string): Promise<WebhookDelivery[]> {
  const res = await ctx.api.get(`/v1/webhook/${id}/deliveries`);
  expect(res.status).toBe(200);
  return WebhookDeliveryListSchema.parse(res.body);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function newChatbot(name = 'Shop bot'): Promise<string> {
  return (await ctx.api.post('/v1/chatbot').send({ name })).body.id as string;
}

/** Clears what earlier tests left, so each test counts only its own requests and mails. */
async function fresh(): Promise<void> {
  for (const hook of (await ctx.api.get('/v1/webhook/all')).body as { id: string }[]) await ctx.api.delete(`/v1/webhook/${hook.id}`);
  receiver.received.length = 0;
  receiver.plan = [];
  smtp.mails.length = 0;
  await ctx.api.put('/v1/notification/settings').send({ recipients: [] });
}

describe('webhook endpoints (POST/GET/PUT/DELETE /v1/webhook)', () => {
  it('shows the secret once, lists without it, changes and removes; other organisations get 404', async () => {
    await fresh();
    const created = await addWebhook(['lead.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const list = await ctx.api.get('/v1/webhook/all');
    expect(WebhookListSchema.parse(list.body)).toEqual([{ id: created.id, url: hookUrl, events: ['lead.created'], description: 'CRM', enabled: true, createdAt: created.createdAt }]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const updated = await ctx.api.put(`/v1/webhook/${created.id}`).send({ events: ['lead.created', 'feedback.created'] });
    expect(updated.status).toBe(200);
    expect(updated.body.events).toEqual(['lead.created', 'feedback.created']);
    const other = await ctx.newOrganisation();
    for (const res of [await other.api.put(`/v1/webhook/${created.id}`).send({ enabled: false }), await other.api.delete(`/v1/webhook/${created.id}`),
      await other.api.post(`/v1/webhook/${created.id}/test`), await other.api.get(`/v1/webhook/${created.id}/deliveries`), await other.api.post(`/v1/webhook/${created.id}/secret`)]) {
      expect(res.status).toBe(404);
    }
    expect((await other.api.get('/v1/webhook/all')).body).toEqual([]);
    expect((await ctx.api.delete(`/v1/webhook/${created.id}`)).status).toBe(200);
    expect((await ctx.api.get(`/v1/webhook/${created.id}/deliveries`)).status).toBe(404);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    for (const body of [{ url: 'ftp://example.com/x', events: ['lead.created'] }, { url: hookUrl, events: [] }, { url: hookUrl, events: ['lead.deleted'] },
      { url: hookUrl, events: ['lead.created', 'lead.created'] }, { url: hookUrl, events: ['lead.created'], secret: 'mine' }, { url: 'http://user:pw@example.com/', events: ['lead.created'] }]) {
      const res = await ctx.api.post('/v1/webhook').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message.length).toBeGreaterThan(0);
    }
    expect((await ctx.api.put('/v1/webhook/not-an-id').send({})).status).toBe(400);
  });
});

describe('events delivered by webhook and mail', () => {
  it('delivers every event, signed (Standard Webhooks), and mails the subscribed addresses in text and HTML', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created', 'feedback.created', 'resource.processed', 'conversation.handoff_requested']);
    const settings = await ctx.api.put('/v1/notification/settings').send({ recipients: [
      { email: 'owner@shop.example', events: ['lead.created', 'feedback.created', 'resource.processed', 'conversation.handoff_requested'] },
      { email: 'sales@shop.example', events: ['lead.created'] },
    ] });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ mailEnabled: true });
    const chatbotId = await newChatbot();
    const saved = await embed(chatbotId, 'conversation', { messages: [{ text: 'Do you ship?', fromUser: true }, { text: 'Yes.', fromUser: false }] });
    const { id: conversationId, visitorToken } = saved.body as { id: string; visitorToken: string };

    expect((await embed(chatbotId, 'leads', { email: 'ada@example.com', name: 'Ada', conversationId })).status).toBe(201);
    expect((await embed(chatbotId, 'feedback', { conversationId, visitorToken, messageIndex: 1, rating: 'down', comment: 'Where to?' })).status).toBe(201);
    const stream = await embed(chatbotId, 'chat-stream', { conversation: [{ text: 'connect me to a human please', fromUser: true }], conversationId, visitorToken });
    expect(decodeEvents(stream.text).at(-1)).toMatchObject({ type: 'streamEnd', data: { handoff: true } });
    const text = await ctx.api.post('/v1/resource/text').send({ name: 'Shipping', content: 'We ship to 30 countries within a week.' });
    const video = await ctx.api.post('/v1/resource/video-host').send({ hostedVideoId: '42' });
    expect([text.status, video.status]).toEqual([201, 201]);

    const received = await receiver.waitFor(5);
    for (const request of received) {
      expect(request.verified.ok, JSON.stringify(request.verified)).toBe(true);
      // Each body is what the OpenAPI document's `webhooks` section says it is.
      if (request.verified.ok) notificationEventBodySchema(request.verified.payload.type as NotificationEventType).parse(request.verified.payload);
      expect(request.headers['webhook-id']).toMatch(/^msg_/);
      expect(request.headers['content-type']).toBe('application/json');
    }
    const byType = Object.fromEntries(received.map((request) => [request.verified.ok ? request.verified.payload.type : '', request.verified.ok ? request.verified.payload : undefined]));
    expect(byType['lead.created']?.data).toMatchObject({ email: 'ada@example.com', name: 'Ada', conversationId, chatbotId });
    expect(byType['feedback.created']?.data).toMatchObject({ conversationId, messageIndex: 1, rating: 'down', comment: 'Where to?', chatbotId });
    expect(byType['conversation.handoff_requested']?.data).toEqual({ chatbotId, conversationId, message: 'connect me to a human please', source: 'website' });
    const processed = received.filter((request) => request.verified.ok && request.verified.payload.type === 'resource.processed')
      .map((request) => (request.verified.ok ? request.verified.payload.data : {}));
    expect(processed).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: text.body.id, aiProcessingStatus: 'DONE', fileName: 'Shipping' }),
      expect.objectContaining({ id: video.body.id, aiProcessingStatus: 'FAILED', failureReason: expect.stringContaining('VIDEO_HOST_URL') }),
    ]));
    expect(Date.parse(byType['lead.created']!.timestamp)).toBeGreaterThan(0);

    // Mail: 5 to the owner, and the lead to sales as well (one mail with both recipients).
    const mails = await smtp.waitFor(5);
    const lead = mails.find((mail) => mail.subject?.includes('New lead'));
    expect(lead?.to && 'value' in lead.to ? lead.to.value.map((entry) => entry.address).sort() : []).toEqual(['owner@shop.example', 'sales@shop.example']);
    expect(lead?.from?.value[0]?.address).toBe('parley@test.example');
    expect(lead?.text).toContain('E-mail: ada@example.com');
    expect(lead?.text).toContain(`${ctx.url}/console/leads?chatbot=${chatbotId}`);
    expect(lead?.html).toContain(`href="${ctx.url}/console/leads?chatbot=${chatbotId}"`);
    expect(mails.map((mail) => mail.subject)).toEqual(expect.arrayContaining([
      '[Parley] New lead (Shop bot)', '[Parley] New feedback on an answer (Shop bot)', '[Parley] A visitor asks for a person (Shop bot)',
      '[Parley] Knowledge processed', '[Parley] Knowledge could not be processed',
    ]));
    for (const mail of mails) {
      expect(mail.text).toBeTruthy();
      expect(mail.html).toBeTruthy();
      // Nothing secret: no signing secret, API key or visitor token.
      for (const secret of [hook.secret, ctx.org.apiKey, visitorToken]) {
        expect(`${mail.text}${String(mail.html)}`).not.toContain(secret);
      }
    }
    const handoffMail = mails.find((mail) => mail.subject?.includes('asks for a person'));
    expect(handoffMail?.text).toContain(`/console/conversations?chatbot=${chatbotId}&conversation=${conversationId}`);
  });

  it('mails a conversation at most once per few minutes, while webhooks get every event', async () => {
    await fresh();
    await addWebhook(['conversation.handoff_requested']);
    await ctx.api.put('/v1/notification/settings').send({ recipients: [{ email: 'owner@shop.example', events: ['conversation.handoff_requested'] }] });
    const chatbotId = await newChatbot('Busy bot');
    const saved = await embed(chatbotId, 'conversation', { messages: [{ text: 'Hi', fromUser: true }, { text: 'Hello!', fromUser: false }] });
    const { id: conversationId, visitorToken } = saved.body as { id: string; visitorToken: string };
    for (let i = 0; i < 3; i++) {
      await embed(chatbotId, 'chat-stream', { conversation: [{ text: 'connect me to a human please', fromUser: true }], conversationId, visitorToken });
    }
    await receiver.waitFor(3);
    await smtp.waitFor(1);
    // The mail job of a second or third request would be queued by now: none is.
    expect(await ctx.services.jobs.pendingCount(['notification-mail'])).toBe(0);
    expect(smtp.mails).toHaveLength(1);
  });

  it('tells the team of a "Talk to a person" request and of each message the visitor writes while waiting', async () => {
    await fresh();
    await addWebhook(['conversation.handoff_requested', 'conversation.waiting_message']);
    const chatbotId = await newChatbot('Staffed bot');
    // Always within office hours: the team counts as available, so the request makes it WAITING.
    const officeHours = { timeZone: 'UTC', weekdays: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '24:00' };
    const updated = await ctx.api.put(`/v1/chatbot/${chatbotId}`).send({ websiteIntegration: { officeHours } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const saved = await embed(chatbotId, 'conversation', { messages: [{ text: 'Hi', fromUser: true }, { text: 'Hello!', fromUser: false }] });
    const { id: conversationId, visitorToken } = saved.body as { id: string; visitorToken: string };
    const requested = await embed(chatbotId, 'handoff', { conversationId, visitorToken });
    expect(requested.body).toMatchObject({ state: 'WAITING', available: true });
    await embed(chatbotId, 'chat-stream', { conversation: [{ text: 'are you still there?', fromUser: true }], conversationId, visitorToken });
    const requests = await receiver.waitFor(2);
    const events = requests.map((request) => request.verified).map((verified) => (verified?.ok ? verified.payload : undefined));
    expect(events).toEqual([
      expect.objectContaining({ type: 'conversation.handoff_requested', data: { chatbotId, conversationId, source: 'website' } }),
      expect.objectContaining({ type: 'conversation.waiting_message', data: { chatbotId, conversationId, message: 'are you still there?', source: 'website' } }),
    ]);
    // A wrong secret tells nobody anything.
    expect((await embed(chatbotId, 'handoff', { conversationId, visitorToken: 'x'.repeat(visitorToken.length) })).status).toBe(404);
  });

  it('delivers conversation.waiting_message as live handoff publishes it, sharing the handoff\'s mail limit', async () => {
    await fresh();
    await addWebhook(['conversation.handoff_requested', 'conversation.waiting_message']);
    await ctx.api.put('/v1/notification/settings').send({ recipients: [{ email: 'owner@shop.example', events: ['conversation.handoff_requested', 'conversation.waiting_message'] }] });
    const chatbotId = await newChatbot('Waiting bot');
    const saved = await embed(chatbotId, 'conversation', { messages: [{ text: 'Hi', fromUser: true }, { text: 'Hello!', fromUser: false }] });
    const { id: conversationId, visitorToken } = saved.body as { id: string; visitorToken: string };
    await embed(chatbotId, 'chat-stream', { conversation: [{ text: 'connect me to a human please', fromUser: true }], conversationId, visitorToken });
    // The handoff is published once the answer ended (after the visitor has it): wait for it.
    await receiver.waitFor(1);
    for (const message of ['Hello?', 'Still there?']) {
      await ctx.services.notifications.publish(ctx.org.organisationId, 'conversation.waiting_message', { chatbotId, conversationId, message },
        { conversationKey: conversationMailKey(conversationId), chatbotName: 'Waiting bot' });
    }
    const received = await receiver.waitFor(3);
    expect(received.map((request) => (request.verified.ok ? [request.verified.payload.type, request.verified.payload.data.message] : [])))
      .toEqual([['conversation.handoff_requested', 'connect me to a human please'], ['conversation.waiting_message', 'Hello?'], ['conversation.waiting_message', 'Still there?']]);
    await smtp.waitFor(1);
    // The mail job is finished just after the SMTP server has the mail; no other mail job is left.
    expect(await until(() => ctx.services.jobs.pendingCount(['notification-mail']), (pending) => pending === 0)).toBe(0);
    expect(smtp.mails.map((mail) => mail.subject)).toEqual(['[Parley] A visitor asks for a person (Waiting bot)']);
  });

  it('sends a test message and lists it among the deliveries', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    const res = await ctx.api.post(`/v1/webhook/${hook.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ type: 'webhook.test', status: 'PENDING', attempts: 0 });
    const [request] = await receiver.waitFor(1);
    expect(request?.verified).toMatchObject({ ok: true, payload: { type: 'webhook.test', data: { webhookId: hook.id } } });
    const deliveries = await until(() => deliveriesOf(hook.id), (list) => list[0]?.status === 'DELIVERED');
    expect(deliveries[0]).toMatchObject({ id: res.body.id, status: 'DELIVERED', attempts: 1, responseStatus: 200 });
  });
});

describe('delivery you can trust', () => {
  it('retries 503, 503 then 200 with the same webhook-id, and keeps an endpoint\'s messages in order', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    receiver.plan = [503, 503];
    const chatbotId = await newChatbot();
    await embed(chatbotId, 'leads', { email: 'first@example.com' });
    await embed(chatbotId, 'leads', { email: 'second@example.com' });
    const received = await receiver.waitFor(4);
    const ids = received.map((request) => request.headers['webhook-id']);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[1]).toBe(ids[2]);
    expect(ids[3]).not.toBe(ids[0]);
    expect(received.map((request) => request.status)).toEqual([503, 503, 200, 200]);
    expect(received.map((request) => (request.verified.ok ? request.verified.payload.data.email : undefined)))
      .toEqual(['first@example.com', 'first@example.com', 'first@example.com', 'second@example.com']);
    const deliveries = await until(() => deliveriesOf(hook.id), (list) => list.every((d) => d.status === 'DELIVERED'));
    expect(deliveries.map((d) => [d.status, d.attempts, d.responseStatus])).toEqual([['DELIVERED', 1, 200], ['DELIVERED', 3, 200]]);
  });

  it('a 4xx other than 408/429 is final; the next message follows', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    receiver.plan = [410];
    const chatbotId = await newChatbot();
    await embed(chatbotId, 'leads', { email: 'gone@example.com' });
    await embed(chatbotId, 'leads', { email: 'next@example.com' });
    await receiver.waitFor(2);
    const deliveries = await until(() => deliveriesOf(hook.id), (list) => list.every((d) => d.status !== 'PENDING'));
    expect(deliveries.map((d) => [d.status, d.attempts, d.responseStatus])).toEqual([['DELIVERED', 1, 200], ['FAILED', 1, 410]]);
    expect(deliveries[1]?.lastError).toBe('the endpoint answered 410');
  });

  it('loses nothing when the service restarts between attempts', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    receiver.plan = [503];
    const chatbotId = await newChatbot();
    await embed(chatbotId, 'leads', { email: 'restart@example.com' });
    const [first] = await receiver.waitFor(1);
    await until(() => deliveriesOf(hook.id), (list) => list[0]?.attempts === 1);
    // The instance stops; another starts on the same database and finishes the job.
    await ctx.services.worker.stop();
    const second: Services = createServices(ctx.config, ctx.database, pino({ level: 'silent' }), { jobPollIntervalMs: 20 });
    restarted.push(second);
    second.worker.start();
    const received = await receiver.waitFor(2);
    expect(received[1]?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(received[1]?.verified.ok).toBe(true);
    const deliveries = await until(() => deliveriesOf(hook.id), (list) => list[0]?.status === 'DELIVERED');
    expect(deliveries[0]).toMatchObject({ status: 'DELIVERED', attempts: 2 });
  });

  it('a tampered body or a wrong secret fails verification', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    await embed(await newChatbot(), 'leads', { email: 'honest@example.com' });
    const [request] = await receiver.waitFor(1);
    expect(request?.verified.ok).toBe(true);
    const tampered = request!.body.replace('honest@example.com', 'forged@example.com');
    expect(receiver.verify(tampered, request!.headers)).toMatchObject({ ok: false });
    receiver.secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    expect(receiver.verify(request!.body, request!.headers)).toMatchObject({ ok: false });
    receiver.secret = hook.secret;
  });

  it('signs with both secrets for a day after a rotation', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    const rotated = await ctx.api.post(`/v1/webhook/${hook.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    await embed(await newChatbot(), 'leads', { email: 'rotate@example.com' });
    const [request] = await receiver.waitFor(1);
    expect(request?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [hook.secret, rotated.body.secret as string]) {
      receiver.secret = secret;
      expect(receiver.verify(request!.body, request!.headers).ok).toBe(true);
    }
  });

  it('disables an endpoint failing for a day, tells the owner, and sends its waiting messages once it is on again', async () => {
    await fresh();
    await ctx.api.put('/v1/notification/settings').send({ recipients: [{ email: 'owner@shop.example', events: [] }] });
    const hook = await addWebhook(['lead.created']);
    // It has been failing since yesterday.
    await ctx.database.db('webhook_endpoints').where({ id: hook.id }).update({ failing_since: Date.now() - 25 * 3_600_000 });
    receiver.plan = [500];
    await embed(await newChatbot(), 'leads', { email: 'late@example.com' });
    await receiver.waitFor(1);
    const disabled = await until(async () => (await ctx.api.get('/v1/webhook/all')).body[0], (hookNow: { enabled: boolean }) => !hookNow.enabled);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('the endpoint answered 500') });
    const [mail] = await smtp.waitFor(1);
    expect(mail?.subject).toBe('[Parley] A webhook endpoint was disabled');
    expect(mail?.text).toContain(hookUrl);
    expect(mail?.text).not.toContain(hook.secret);
    expect((await ctx.api.put(`/v1/webhook/${hook.id}`).send({ enabled: true })).body).toMatchObject({ enabled: true });
    const received = await receiver.waitFor(2);
    expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);
  });
});

describe('the SSRF guard (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset)', () => {
  let guarded: TestContext;
  beforeAll(async () => {
    guarded = await createTestContext({ env: { WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_MS: '40' } });
    guarded.startJobs();
  });
  afterAll(async () => { await guarded?.close(); });

  it('refuses a private or loopback URL at creation with 400', async () => {
    const port = new URL(hookUrl).port;
    for (const url of [hookUrl, `http://localhost:${port}/hook`, 'http://[::1]/hook', 'http://10.0.0.8/hook', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/']) {
      const res = await guarded.api.post('/v1/webhook').send({ url, events: ['lead.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body.message[0]).toMatch(/url .*not a public address.*WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    }
    expect((await guarded.api.put('/v1/webhook/0123456789abcdef01234567').send({ url: hookUrl })).status).toBe(404);
  });

  it('refuses a private address at delivery, after DNS (an endpoint whose name now resolves to loopback)', async () => {
    receiver.received.length = 0;
    // Stored as if its name had resolved publicly when it was added: the delivery looks it up again.
    const created = await guarded.api.post('/v1/webhook').send({ url: 'https://hooks.example.com/in', events: ['lead.created'] });
    expect(created.status).toBe(201);
    const port = new URL(hookUrl).port;
    await guarded.database.db('webhook_endpoints').where({ id: created.body.id }).update({ url: `http://localhost:${port}/hook` });
    await guarded.services.notifications.publish(guarded.org.organisationId, 'lead.created', { email: 'x@example.com' });
    const deliveries = await until(async () => (await guarded.api.get(`/v1/webhook/${created.body.id}/deliveries`)).body as WebhookDelivery[],
      (list) => list[0]?.status === 'FAILED');
    expect(deliveries[0]).toMatchObject({ status: 'FAILED', attempts: 1, lastError: expect.stringMatching(/localhost resolves to .*not a public address/) });
    expect(receiver.received).toHaveLength(0);
  });

  it('says that mail is off and how to turn it on', async () => {
    const res = await guarded.api.get('/v1/notification/settings');
    expect(res.body).toEqual({ recipients: [], mailEnabled: false, mailHint: expect.stringContaining('SMTP_URL') });
    expect((await guarded.api.put('/v1/notification/settings').send({ recipients: [{ email: 'not-an-address', events: [] }] })).status).toBe(400);
    const saved = await guarded.api.put('/v1/notification/settings').send({ recipients: [{ email: 'ops@shop.example', events: ['lead.created'] }] });
    expect(saved.body.recipients).toEqual([{ email: 'ops@shop.example', events: ['lead.created'] }]);
  });
});

describe('limits', () => {
  it('sends at most 10 test messages per minute per key (429)', async () => {
    const other = await ctx.newOrganisation();
    const hook = await other.api.post('/v1/webhook').send({ url: hookUrl, events: ['lead.created'] });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await other.api.post(`/v1/webhook/${hook.body.id}/test`)).status);
    expect(statuses).toEqual([...Array(10).fill(202), 429]);
  });

  it('keeps a bounded history of finished messages per endpoint, and every waiting one', async () => {
    await fresh();
    const hook = await addWebhook(['lead.created']);
    const repository = new WebhooksRepository(ctx.database.db);
    const now = Date.now();
    await repository.insertDeliveries(Array.from({ length: 6 }, (_, i) => ({ id: `msg_prune${i}`, endpointId: hook.id, organisationId: ctx.org.organisationId, type: 'lead.created', body: '{}', createdAt: now })));
    await ctx.database.db('webhook_deliveries').whereIn('id', ['msg_prune0', 'msg_prune1', 'msg_prune2', 'msg_prune4', 'msg_prune5']).update({ status: 'DELIVERED' });
    await repository.pruneFinished(hook.id, 2);
    expect((await ctx.database.db('webhook_deliveries').where({ endpoint_id: hook.id }).orderBy('seq').pluck('id'))).toEqual(['msg_prune3', 'msg_prune4', 'msg_prune5']);
  });


  it('an organisation has at most 20 webhooks', async () => {
    const other = await ctx.newOrganisation();
    for (let i = 0; i < 20; i++) expect((await other.api.post('/v1/webhook').send({ url: `${hookUrl}?n=${i}`, events: ['lead.created'] })).status).toBe(201);
    const refused = await other.api.post('/v1/webhook').send({ url: hookUrl, events: ['lead.created'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message[0]).toContain('at most 20 webhooks');
  });
});
