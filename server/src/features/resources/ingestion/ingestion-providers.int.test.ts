import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { retrieveChunks } from '../retrieve-chunks.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';

/** Concepts the fake embeddings model knows: words of one concept get similar vectors. */
const CONCEPTS = [
  ['tea', 'sencha', 'matcha', 'drink', 'beverage', 'brew'],
  ['car', 'automobile', 'vehicle', 'tyres', 'engine'],
  ['morning', 'breakfast', 'dawn', 'japanese'],
];

function fakeEmbedding(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return [...CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length), 0.01];
}

let ctx: TestContext;
let provider: FakeServer;

beforeAll(async () => {
  provider = await startFakeServer((req, body) => {
    if (req.url === '/v1/audio/transcriptions') {
      return {
        type: 'application/json',
        body: JSON.stringify({ text: 'ignored', segments: [
          { start: 0, end: 1.5, text: ' A beep plays for three seconds. ' },
          { start: 1.5, end: 3, text: 'Then the screen goes black.' },
        ] }),
      };
    }
    if (req.url === '/v1/embeddings') {
      const { input, model } = JSON.parse(body.toString()) as { input: string[]; model: string };
      if (model !== 'fake-embed') return { status: 400 };
      return { type: 'application/json', body: JSON.stringify({ data: input.map((text, index) => ({ index, embedding: fakeEmbedding(text) })) }) };
    }
    return { status: 404 };
  });
  ctx = await createTestContext({
    env: {
      RESOURCE_CREATION_RATE_LIMIT: '1000', TRANSCRIPTION_BASE_URL: `${provider.url}/v1`, TRANSCRIPTION_API_KEY: 'sk-transcribe',
      EMBEDDINGS_BASE_URL: `${provider.url}/v1`, EMBEDDINGS_MODEL: 'fake-embed',
    },
  });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
  await provider?.close();
});

describe('transcription provider', () => {
  it('transcribes a video without subtitles through /v1/audio/transcriptions, keeping segment times', async () => {
    const file = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'no-subtitles.mp4'));
    const res = await ctx.api.post('/v1/resource/file').attach('file', file, 'beep.mp4').expect(201);
    expect((await waitForProcessing(ctx.api, res.body.id)).aiProcessingStatus).toBe('DONE');
    const [chunk] = await ctx.database.db('resource_chunks').where({ resource_id: res.body.id }).select('content', 'provenance');
    expect(chunk).toEqual({ content: 'A beep plays for three seconds. Then the screen goes black.', provenance: { startSeconds: 0, endSeconds: 3 } });
    const request = provider.requests.find((r) => r.path === '/v1/audio/transcriptions')!;
    expect(request.headers.authorization).toBe('Bearer sk-transcribe');
    const form = request.body.toString('latin1');
    expect(form).toContain('name="model"\r\n\r\nwhisper-1');
    expect(form).toContain('name="response_format"\r\n\r\nverbose_json');
    expect(request.body.includes(file)).toBe(true);
  });
});

describe('embeddings provider', () => {
  it('stores an embedding per chunk and fuses vector neighbours with full-text ranking', async () => {
    const car = await createResource(ctx.api, 'text', { name: 'Car', content: 'The automobile needs new tyres before winter.' });
    const tea = await createResource(ctx.api, 'text', { name: 'Tea', content: 'Sencha is a Japanese green tea.' });
    for (const resource of [car, tea]) expect((await waitForProcessing(ctx.api, resource.id)).aiProcessingStatus).toBe('DONE');
    const stored = await ctx.database.db('resource_chunks').whereIn('resource_id', [car.id, tea.id]).select('embedding_model', ctx.database.db.raw('embedding::text as embedding'));
    expect(stored).toHaveLength(2);
    for (const row of stored) expect(row).toMatchObject({ embedding_model: 'fake-embed', embedding: expect.stringMatching(/^\[/) });
    // No word of the question is in either text: only the vectors can find the answer.
    const found = await ctx.services.resources.retrieve(ctx.org.organisationId, [car.id, tea.id], 'What should I drink at breakfast?', 1);
    expect(found.map((chunk) => chunk.fileName)).toEqual(['Tea']);
    // Full text alone finds nothing: the vectors came from the service's embedder...
    expect(await retrieveChunks(ctx.database.db, ctx.org.organisationId, [car.id, tea.id], 'What should I drink at breakfast?', 1)).toEqual([]);
    // ...and chat, which retrieves through the resources service, gets the same hybrid ranking.
    const chatbot = await ctx.api.post('/v1/chatbot').send({ name: 'Drinks', resourceIds: [car.id, tea.id] }).expect(201);
    const auth = (await ctx.services.organisations.authenticate(ctx.org.apiKey))!;
    const answer = await ctx.services.chat.prepareChatbotChat(auth, {
      chatbotId: chatbot.body.id, conversation: [{ text: 'What should I drink at breakfast?', fromUser: true }],
    });
    expect(answer.prompt?.passages[0]?.content).toBe('Sencha is a Japanese green tea.');
    // Full text still ranks exact words first when the vectors are indifferent.
    const lexical = await ctx.services.resources.retrieve(ctx.org.organisationId, [car.id, tea.id], 'winter', 1);
    expect(lexical.map((chunk) => chunk.fileName)).toEqual(['Car']);
  });
});
