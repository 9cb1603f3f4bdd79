import { describe, expect, it } from 'vitest';
import { ModelSchema } from '@parley/shared';
import { MODEL_TABLE } from '../../config.js';

describe('MODEL_TABLE', () => {
  it('maps every model name of the contract to a provider model', () => {
    expect(Object.keys(MODEL_TABLE).sort()).toEqual([...ModelSchema.options].sort());
  });

  it('maps every name to a model that serves chat answers (no realtime-only model through Chat Completions)', () => {
    for (const { providerModel } of Object.values(MODEL_TABLE)) expect(providerModel).not.toMatch(/realtime|audio|transcribe|tts/);
  });
});
