import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModelProvider } from '../../test/fakes/fake-model-provider.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { insertChunkedResource } from './chat-test-fixtures.js';

// MODEL_MAP (issue 39): an OpenAI-compatible server that has only `llama3.1:8b` (as a local
// Ollama would) serves the API's `alpha-4o-mini`.
let local: FakeModelProvider;
let mapped: TestContext;
let unmapped: TestContext;

async function chatbotOn(ctx: TestContext): Promise<string> {
  const resourceId = await insertChunkedResource(ctx.database.db, ctx.org.organisationId, ctx.org.userId, 'ferry.txt', ['The ferry leaves at noon.']);
  const res = await ctx.api.post('/v1/chatbot').send({ name: 'Ferry', model: 'alpha-4o-mini', resourceIds: [resourceId] });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  local = await FakeModelProvider.start('openai', { deltas: ['It leaves', ' at noon.'] });
  local.knownModels = ['llama3.1:8b'];
  const env = { OPENAI_API_KEY: 'ollama', OPENAI_BASE_URL: local.baseUrl };
  mapped = await createTestContext({ env: { ...env, MODEL_MAP: 'alpha-4o-mini=llama3.1:8b, alpha-5-mini=qwen2.5:14b' } });
  unmapped = await createTestContext({ env });
});
afterAll(async () => {
  await mapped?.close();
  await unmapped?.close();
  await local?.close();
});

describe('MODEL_MAP', () => {
  it('sends the mapped provider model for an API model name, and the answer comes from it', async () => {
    const chatbotId = await chatbotOn(mapped);
    const res = await mapped.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text: 'When does the ferry leave?', fromUser: true }] });
    expect(res.status).toBe(201);
    expect(res.body.text).toBe('It leaves at noon.');
    expect(local.requests.at(-1)?.body.model).toBe('llama3.1:8b');
  });

  it('without it, the same server refuses the default provider model and the chat fails', async () => {
    const chatbotId = await chatbotOn(unmapped);
    const res = await unmapped.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text: 'When does the ferry leave?', fromUser: true }] });
    expect(res.status).not.toBe(201);
    expect(local.requests.at(-1)?.body.model).toBe('gpt-4o-mini');
  });

  it('GET /v1/model/all says what answers each model name here', async () => {
    const res = await mapped.api.get('/v1/model/all');
    expect(res.status).toBe(200);
    const byName = Object.fromEntries((res.body.models as { name: string }[]).map((model) => [model.name, model]));
    expect(byName['alpha-4o-mini']).toEqual({ name: 'alpha-4o-mini', engine: 'provider', provider: 'openai', providerModel: 'llama3.1:8b' });
    expect(byName['alpha-realtime']).toEqual({ name: 'alpha-realtime', engine: 'provider', provider: 'openai', providerModel: 'gpt-4o' });
    expect(byName['beta-haiku-4.5']).toEqual({ name: 'beta-haiku-4.5', engine: 'local' });
    expect((await mapped.anonymous.get('/v1/model/all')).status).toBe(401);
  });
});
