import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_TABLE, type ProviderCredentials } from '../../config.js';
import { HttpError } from '../../errors/http-error.js';
import { FakeModelProvider, type ProviderFamily } from '../../test/fakes/fake-model-provider.js';
import { requestParts } from '../../test/fakes/provider-request.js';
import type { AnswerPrompt } from './answer-model.js';
import { ModelRegistry } from './model-registry.js';

const PROMPT: AnswerPrompt = {
  system: 'You are a helpful assistant.\nContext:\n[1] (source: faq.txt)\nParcels ship within 2 days.',
  messages: [{ role: 'user', content: 'How fast do parcels ship?' }, { role: 'assistant', content: 'Within 2 days.' }, { role: 'user', content: 'And on weekends?' }],
  question: 'And on weekends?',
  passages: [{ content: 'Parcels ship within 2 days.', source: 'faq.txt' }],
};

const FAMILIES: { family: ProviderFamily; model: 'alpha-4o-mini' | 'beta-haiku-4.5' | 'gamma-3-flash' }[] = [
  { family: 'openai', model: 'alpha-4o-mini' },
  { family: 'anthropic', model: 'beta-haiku-4.5' },
  { family: 'google', model: 'gamma-3-flash' },
];

let fake: FakeModelProvider | undefined;
afterEach(async () => { await fake?.close(); fake = undefined; });

function registryFor(family: ProviderFamily, baseUrl: string): ModelRegistry {
  const none: ProviderCredentials = {};
  return new ModelRegistry({ openai: none, anthropic: none, google: none, [family]: { apiKey: `key-${family}`, baseUrl } });
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const deltas: string[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

describe.each(FAMILIES)('the answer model of $family (through the registry)', ({ family, model }) => {
  it('streams the provider\'s deltas in order and sends the system prompt, history and credentials', async () => {
    fake = await FakeModelProvider.start(family, { deltas: ['Yes,', ' also', ' on', ' weekends.'] });
    const deltas = await collect(registryFor(family, fake.baseUrl).answerModel(model).stream(PROMPT, new AbortController().signal));
    expect(deltas.join('')).toBe('Yes, also on weekends.');
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    const parts = requestParts(family, request.body);
    expect(parts.system).toBe(PROMPT.system);
    expect(parts.lastUser).toBe('And on weekends?');
    if (parts.model) expect(parts.model).toBe(MODEL_TABLE[model].providerModel);
    if (family === 'google') expect(request.path).toBe(`/v1beta/models/${MODEL_TABLE[model].providerModel}:streamGenerateContent`);
    const keyHeader = { openai: 'authorization', anthropic: 'x-api-key', google: 'x-goog-api-key' }[family];
    expect(String(request.headers[keyHeader])).toContain(`key-${family}`);
  });

  it('throws a 502 after the deltas already streamed when the provider reports an error mid-stream', async () => {
    fake = await FakeModelProvider.start(family, { deltas: ['Partial', ' answer', ' never', ' finished'], failAfter: 2 });
    const seen: string[] = [];
    const stream = registryFor(family, fake.baseUrl).answerModel(model).stream(PROMPT, new AbortController().signal);
    const error = await (async () => {
      try {
        for await (const delta of stream) seen.push(delta);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(502);
    expect(seen.join('')).toBe('Partial answer');
  });

  it('closes the provider connection when the signal aborts mid-stream', async () => {
    fake = await FakeModelProvider.start(family, { deltas: ['One', ' two', ' three'], intervalMs: 5, hang: true });
    const controller = new AbortController();
    const seen: string[] = [];
    const stream = registryFor(family, fake.baseUrl).answerModel(model).stream(PROMPT, controller.signal);
    await expect((async () => {
      for await (const delta of stream) {
        seen.push(delta);
        if (seen.length === 2) controller.abort(new Error('visitor left'));
      }
    })()).rejects.toThrow();
    await fake.waitForClientAbort();
    expect(fake.clientAborts).toBe(1);
    expect(seen.join('')).toBe('One two');
  });
});

describe('ModelRegistry.answerModel', () => {
  it('falls back to the local engine for a family without credentials', async () => {
    const registry = new ModelRegistry({ openai: {}, anthropic: {}, google: {} });
    expect(registry.resolve('beta-sonnet-4.6')).toEqual({ kind: 'local' });
    const text = (await collect(registry.answerModel('beta-sonnet-4.6').stream(PROMPT, new AbortController().signal))).join('');
    expect(text).toContain('Parcels ship within 2 days.');
  });
});
