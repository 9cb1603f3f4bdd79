import { decodeEvents, type LiveEvent } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLiveStream, type LiveStreamClient, type ReceivedEvent } from '../features/handoff/live-stream.test-support.js';
import { startServiceProcess, type ServiceProcess } from '../test/service-process.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/**
 * Live handoff across instances (issue 35): the visitor's stream on instance A, the team on
 * instance B, one PostgreSQL server between them (LISTEN/NOTIFY). Runs on the PostgreSQL server
 * only: the embedded database belongs to one process.
 */
const onPostgres = process.env.TEST_DATABASE === 'postgres';
const SITE = 'https://shop.example';

let ctx: TestContext;
let a: ServiceProcess;
let b: ServiceProcess;
const streams: LiveStreamClient[] = [];

function databaseUrl(): string {
  const settings = ctx.database.db.client.connectionSettings as string | { user?: string; host?: string; port?: number | string; database?: string };
  if (typeof settings === 'string') return settings;
  return `postgres://${settings.user ? `${encodeURIComponent(settings.user)}@` : ''}${settings.host ?? '127.0.0.1'}:${settings.port ?? 5432}/${settings.database}`;
}

beforeAll(async () => {
  if (!onPostgres) return;
  ctx = await createTestContext();
  const env = { DATABASE_URL: databaseUrl(), JOBS_ENABLED: 'false', LOCAL_SENTENCE_ENCODER: 'false', SSE_HEARTBEAT_MS: '1000' };
  [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
}, 120_000);
afterAll(async () => {
  for (const stream of streams) stream.close();
  await a?.kill();
  await b?.kill();
  await ctx?.close();
});

async function call(instance: ServiceProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = { 'x-api-key': ctx.org.apiKey }): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
  const res = await fetch(`${instance.url}${path}`, {
    method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : {} };
}

const isMessage = (text: string) => ({ event }: ReceivedEvent) => event.type === 'message' && event.message.text === text;
const isState = (state: string) => ({ event }: ReceivedEvent) => event.type === 'state' && event.state === state;
const describeEvent = (event: LiveEvent) => (event.type === 'message' ? event.message.text : event.state);

describe.runIf(onPostgres)('live handoff across two instances on one PostgreSQL server', () => {
  it('hands over on B while the visitor listens on A, and replays what a dead instance\'s visitor missed', async () => {
    const chatbot = await call(b, 'POST', '/v1/chatbot', { name: 'Shop bot' });
    const chatbotId = chatbot.body.id as string;
    const visitorHeaders = { origin: SITE };
    const saved = await call(a, 'POST', `/v1/embed/${chatbotId}/conversation`, { messages: [{ text: 'Hello', fromUser: true }] }, visitorHeaders);
    const conversation = { conversationId: saved.body.id as string, visitorToken: saved.body.visitorToken as string };
    const conversationPath = `/v1/conversation/${conversation.conversationId}`;

    // The team watches the inbox on B; the visitor listens on A.
    const inbox = await openLiveStream(`${b.url}/v1/inbox/events`, { 'x-api-key': ctx.org.apiKey });
    const visitor = await openLiveStream(`${a.url}/v1/embed/${chatbotId}/conversation/${conversation.conversationId}/events`,
      { origin: SITE, 'x-visitor-token': conversation.visitorToken });
    streams.push(inbox, visitor);
    expect([inbox.status, visitor.status]).toEqual([200, 200]);

    const handoff = await call(a, 'POST', `/v1/embed/${chatbotId}/handoff`, conversation, visitorHeaders);
    expect(handoff.body).toEqual({ state: 'WAITING', available: true });
    await inbox.waitFor(isState('WAITING'));
    await visitor.waitFor(isState('WAITING'));

    expect((await call(b, 'POST', `${conversationPath}/takeover`)).body.state).toBe('HUMAN');
    await visitor.waitFor(isState('HUMAN'));
    // The bot stays silent on A; the visitor's message reaches the organisation's stream on B.
    const ask = (text: string) => call(a, 'POST', `/v1/embed/${chatbotId}/chat-stream`, { conversation: [{ text, fromUser: true }], ...conversation }, visitorHeaders);
    const held = await ask('Can I change my order?');
    expect(decodeEvents(held.text)).toEqual([{ type: 'streamEnd', data: { sources: [], state: 'HUMAN' } }]);
    await inbox.waitFor(isMessage('Can I change my order?'));

    // The member's reply on B reaches the visitor's stream on A (its latency: server/bench/live-handoff.bench.ts).
    const sentAt = performance.now();
    expect((await call(b, 'POST', `${conversationPath}/messages`, { text: 'Yes, until it ships.' })).status).toBe(201);
    const delivered = await visitor.waitFor(isMessage('Yes, until it ships.'));
    console.info(`reply B → visitor stream on A: ${(performance.now() - sentAt).toFixed(1)} ms`);
    expect(delivered.event).toMatchObject({ message: { fromUser: false, sender: { type: 'member' } } });

    // A dies; the team goes on on B; the visitor reconnects to B with Last-Event-ID and gets exactly what it missed.
    await a.kill('SIGKILL');
    await call(b, 'POST', `${conversationPath}/messages`, { text: 'Anything else?' });
    await call(b, 'POST', `${conversationPath}/release`);
    const resumed = await openLiveStream(`${b.url}/v1/embed/${chatbotId}/conversation/${conversation.conversationId}/events`,
      { origin: SITE, 'x-visitor-token': conversation.visitorToken, 'last-event-id': String(visitor.events.at(-1)!.id) });
    streams.push(resumed);
    await resumed.waitFor(isState('BOT'));
    expect(resumed.events.map(({ event }) => describeEvent(event))).toEqual(['Anything else?', 'BOT']);

    // Released: the bot answers again (on B now).
    const answered = await call(b, 'POST', `/v1/embed/${chatbotId}/chat-stream`, { conversation: [{ text: 'Thanks, what else do you sell?', fromUser: true }], ...conversation }, visitorHeaders);
    expect(decodeEvents(answered.text).some((event) => event.type === 'partialResponse')).toBe(true);

    expect((await call(b, 'POST', `${conversationPath}/close`)).body.state).toBe('CLOSED');
    await resumed.waitFor(isState('CLOSED'));
    expect((await call(b, 'POST', `${conversationPath}/messages`, { text: 'Late' })).status).toBe(409);
  }, 60_000);
});
