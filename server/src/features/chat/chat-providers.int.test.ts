import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_TABLE } from '../../config.js';
import { FakeModelProvider, type ProviderFamily } from '../../test/fakes/fake-model-provider.js';
import { requestParts } from '../../test/fakes/provider-request.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { insertChunkedResource, joinDeltas, postEventStream } from './chat-test-fixtures.js';

const fakes = {} as Record<ProviderFamily, FakeModelProvider>;
let ctx: TestContext;
let resourceId: string;
const chatbots = {} as Record<ProviderFamily, string>;
const MODELS = { openai: 'alpha-5-mini', anthropic: 'beta-sonnet-4.6', google: 'gamma-3-pro' } as const;
const FAMILIES = Object.keys(MODELS) as ProviderFamily[];
const ask = (text: string) => [{ text, fromUser: true }];

beforeAll(async () => {
  for (const family of FAMILIES) fakes[family] = await FakeModelProvider.start(family);
  ctx = await createTestContext({
    env: {
      OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fakes.openai.baseUrl,
      ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
      GOOGLE_GENERATIVE_AI_API_KEY: 'gk-test', GOOGLE_BASE_URL: fakes.google.baseUrl,
      SSE_HEARTBEAT_MS: '20',
    },
  });
  resourceId = await insertChunkedResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'shipping.pdf', [
    { content: 'Standard parcels ship within 2 working days. Express delivery costs 9 euros.', provenance: { page: 7 } },
  ]);
  for (const family of FAMILIES) {
    const res = await ctx.api.post('/v1/chatbot').send({
      name: family, model: MODELS[family], resourceIds: [resourceId], personalityType: 'COACH', toneType: 'FORMAL',
      restrictAnswersToResourcesContentResponse: 'I can only help with shipping.',
    });
    chatbots[family] = res.body.id;
  }
});
afterAll(async () => {
  await ctx?.close();
  for (const fake of Object.values(fakes)) await fake.close();
});

const streamFrom = (family: ProviderFamily, question: string, options: Parameters<typeof postEventStream>[3] = {}) =>
  postEventStream(`${ctx.url}/v1/chatbot/chat-stream`, ctx.org.apiKey, { chatbotId: chatbots[family], conversation: ask(question) }, options);

describe.each(FAMILIES)('chat on the %s family', (family) => {
  it('streams the provider\'s deltas as partialResponse events, prompted with personality, tone, restrict rule and context', async () => {
    fakes[family].reply = { deltas: ['Express', ' costs', ' 9 euros', ' [1].'] };
    const before = fakes[family].requests.length;
    const result = await streamFrom(family, 'How much does express delivery cost?');
    expect(result.status).toBe(201);
    expect(result.events.filter((event) => event.type === 'partialResponse').map((event) => event.type === 'partialResponse' && event.data.text))
      .toEqual(['Express', ' costs', ' 9 euros', ' [1].']);
    // The answer's [1] marker becomes its source, carried by streamEnd (extension).
    expect(result.events.at(-1)).toEqual({
      type: 'streamEnd',
      data: { sources: [{ resourceId, title: 'shipping.pdf', page: 7, snippet: 'Standard parcels ship within 2 working days. Express delivery costs 9 euros.' }] },
    });
    const request = fakes[family].requests[before]!;
    if (family !== 'google') expect(request.body.model).toBe(MODEL_TABLE[MODELS[family]].providerModel);
    const system = requestParts(family, request.body).system;
    expect(system).toContain('supportive coach');
    expect(system).toContain('formal, professional tone');
    expect(system).toContain('When the context does not contain the answer, reply exactly: "I can only help with shipping."');
    expect(system).toContain('[1] (source: shipping.pdf, page 7)\nStandard parcels ship within 2 working days.');
  });

  it('answers the plain endpoint with the deltas joined', async () => {
    fakes[family].reply = { deltas: ['Within', ' 2', ' working days.'] };
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId: chatbots[family], conversation: ask('How fast do standard parcels ship?') });
    expect(res.status).toBe(201);
    // No [n] marker in the answer: no source is claimed for it.
    expect(res.body).toEqual({ text: 'Within 2 working days.', sources: [] });
  });

  it('ends with an error event after the deltas when the provider fails mid-stream', async () => {
    fakes[family].reply = { deltas: ['Standard', ' parcels', ' ship'], failAfter: 2 };
    const result = await streamFrom(family, 'How fast do standard parcels ship?');
    expect(result.status).toBe(201);
    expect(joinDeltas(result.events)).toBe('Standard parcels');
    expect(result.events.at(-1)).toEqual({ type: 'error', statusCode: 502, message: 'the model provider failed to answer', error: 'Bad Gateway' });
    expect(result.events.some((event) => event.type === 'streamEnd')).toBe(false);
  });

  it('aborts the provider call when the client goes away', async () => {
    fakes[family].reply = { deltas: ['Standard', ' parcels', ' ship', ' within', ' two', ' days'], intervalMs: 15, hang: true };
    const abortsBefore = fakes[family].clientAborts;
    const closed = new Promise<void>((resolve) => {
      const poll = setInterval(() => { if (fakes[family].clientAborts > abortsBefore) { clearInterval(poll); resolve(); } }, 5);
    });
    const controller = new AbortController();
    const result = await streamFrom(family, 'How fast do standard parcels ship?', {
      signal: controller.signal,
      onEvent: (_event, events) => { if (events.length === 2) controller.abort(); },
    });
    expect(result.events).toHaveLength(2);
    await closed;
    expect(fakes[family].clientAborts).toBe(abortsBefore + 1);
  });
});

describe('provider chat edge cases', () => {
  it('answers the restrict text without calling the model when retrieval finds no passage', async () => {
    const before = fakes.openai.requests.length;
    expect(await ctx.services.resources.retrieve(ctx.org.organisationId, [resourceId], 'Which vaccines does a kitten need?', 5)).toEqual([]);
    const plain = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId: chatbots.openai, conversation: ask('Which vaccines does a kitten need?') });
    expect(plain.body).toEqual({ text: 'I can only help with shipping.', sources: [], refused: true });
    const streamed = await streamFrom('openai', 'Which vaccines does a kitten need?');
    expect(streamed.events).toEqual([
      { type: 'partialResponse', data: { text: 'I can only help with shipping.' } },
      { type: 'streamEnd', data: { sources: [], refused: true } },
    ]);
    expect(fakes.openai.requests.length).toBe(before);
  });

  it('answers 502 as JSON when the provider fails before the first delta of a plain answer', async () => {
    fakes.anthropic.reply = { deltas: ['never'], failAfter: 0 };
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId: chatbots.anthropic, conversation: ask('How fast do standard parcels ship?') });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ statusCode: 502, message: ['the model provider failed to answer'], error: 'Bad Gateway' });
  });

  it('aborts the provider call when the client of a plain answer goes away', async () => {
    fakes.anthropic.reply = { deltas: ['Standard', ' parcels', ' ship'], intervalMs: 10, hang: true };
    const abortsBefore = fakes.anthropic.clientAborts;
    const requestsBefore = fakes.anthropic.requests.length;
    const controller = new AbortController();
    const request = fetch(`${ctx.url}/v1/chatbot/chat`, {
      method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json', 'x-api-key': ctx.org.apiKey },
      body: JSON.stringify({ chatbotId: chatbots.anthropic, conversation: ask('How fast do standard parcels ship?') }),
    });
    while (fakes.anthropic.requests.length === requestsBefore) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(request).rejects.toThrow();
    while (fakes.anthropic.clientAborts === abortsBefore) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fakes.anthropic.clientAborts).toBe(abortsBefore + 1);
  });

  it('sends heartbeat comments while the model is slow', async () => {
    fakes.google.reply = { deltas: ['Slow', ' answer.'], intervalMs: 120 };
    const result = await streamFrom('google', 'How fast do standard parcels ship?');
    expect(joinDeltas(result.events)).toBe('Slow answer.');
    expect(result.comments.filter((comment) => comment.trim() === 'heartbeat').length).toBeGreaterThan(0);
    expect(result.raw).toContain(': heartbeat\n\n');
  });

  it('runs the resource chat on RESOURCE_CHAT_MODEL\'s family', async () => {
    fakes.openai.reply = { deltas: ['From', ' the', ' resource.'] };
    const res = await ctx.api.post('/v1/resource/chat').send({ resourceId, conversation: ask('How fast do standard parcels ship?') });
    expect(res.body).toEqual({ text: 'From the resource.', sources: [] });
    expect(fakes.openai.requests.at(-1)!.body.model).toBe(MODEL_TABLE['alpha-4o-mini'].providerModel);
  });
});

describe('a provider that cannot answer', () => {
  let down: TestContext;
  let failing: http.Server;
  const bots = {} as Record<'refused' | 'failing', string>;

  beforeAll(async () => {
    // One provider answers every call with HTTP 500; the other's port has nobody listening.
    failing = http.createServer((req, res) => { req.resume(); res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}'); });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    down = await createTestContext({
      env: {
        OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`,
        ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: `http://127.0.0.1:${closedPort}/v1`,
      },
    });
    const resource = await insertChunkedResource(down.database.db, down.org.organisationId, down.org.userId, 'shipping.txt', [
      { content: 'Standard parcels ship within 2 working days.', provenance: {} },
    ]);
    for (const [name, model] of [['failing', MODELS.openai], ['refused', MODELS.anthropic]] as const) {
      bots[name] = (await down.api.post('/v1/chatbot').send({ name, model, resourceIds: [resource] })).body.id;
    }
  });
  afterAll(async () => {
    await down?.close();
    failing?.closeAllConnections();
    await new Promise<void>((resolve) => (failing ? failing.close(() => resolve()) : resolve()));
  });

  it.each(['failing', 'refused'] as const)('answers 502 when the provider is %s, as JSON and as the stream\'s error event', async (name) => {
    const body = { chatbotId: bots[name], conversation: ask('How fast do standard parcels ship?') };
    const plain = await down.api.post('/v1/chatbot/chat').send(body);
    expect(plain.status).toBe(502);
    expect(plain.body.message).toEqual(['the model provider failed to answer']);
    const streamed = await postEventStream(`${down.url}/v1/chatbot/chat-stream`, down.org.apiKey, body);
    expect(streamed.status).toBe(201);
    expect(streamed.events).toEqual([{ type: 'error', statusCode: 502, message: 'the model provider failed to answer', error: 'Bad Gateway' }]);
  });
});
