import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000, host: '0.0.0.0', publicUrl: 'http://localhost:3000', dataDir: path.resolve('./data'),
      databaseUrl: undefined, resourceCreationRateLimit: 10, crawlAllowPrivateNetworks: false, jobsEnabled: true,
      defaultPlan: { monthlyMessages: undefined, maxResources: undefined, maxStorageBytes: undefined, models: undefined },
      transcription: undefined, embeddings: undefined, trustProxy: false,
    });
  });

  it('prepares 16 answers at once on PostgreSQL and 4 on PGlite unless ADMISSION_CONCURRENCY says otherwise', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/parley' }).admission.concurrency).toBe(16);
    expect(loadConfig({}).admission.concurrency).toBe(4);
    expect(loadConfig({ ADMISSION_CONCURRENCY: '7' }).admission.concurrency).toBe(7);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/parley', ADMISSION_CONCURRENCY: '0' }).admission.concurrency).toBe(1);
  });

  it('names the address listened on in the default PUBLIC_URL', () => {
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '8080' }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:3000');
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '10.0.0.5', PUBLIC_URL: 'https://chat.example' }).publicUrl).toBe('https://chat.example');
  });

  it('reads MODEL_MAP, and stops the start with a clear message for a bad entry', () => {
    expect(loadConfig({}).modelMap).toEqual({});
    expect(loadConfig({ MODEL_MAP: 'alpha-4o-mini=llama3.1:8b, alpha-5-mini = qwen2.5:14b' }).modelMap)
      .toEqual({ 'alpha-4o-mini': 'llama3.1:8b', 'alpha-5-mini': 'qwen2.5:14b' });
    expect(() => loadConfig({ MODEL_MAP: 'gpt-4=llama3' })).toThrow('Invalid configuration: MODEL_MAP names "gpt-4", which is not a model name');
    expect(() => loadConfig({ MODEL_MAP: 'alpha-4o-mini' })).toThrow('Invalid configuration: MODEL_MAP gives no provider model for alpha-4o-mini');
    expect(() => loadConfig({ MODEL_MAP: 'alpha-4o-mini=a,alpha-4o-mini=b' })).toThrow('Invalid configuration: MODEL_MAP maps alpha-4o-mini twice');
  });

  it('reads the plan, providers and OpenAI-compatible endpoints', () => {
    const config = loadConfig({
      PLAN_MONTHLY_MESSAGES: '100', PLAN_MODELS: 'alpha-4o-mini, beta-haiku-4.5', PUBLIC_URL: 'https://chat.example/',
      EMBEDDINGS_API_KEY: 'sk-e', TRANSCRIPTION_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-o', TRUST_PROXY: '1',
    });
    expect(config.defaultPlan).toEqual({ monthlyMessages: 100, maxResources: undefined, maxStorageBytes: undefined, models: ['alpha-4o-mini', 'beta-haiku-4.5'] });
    expect(config.publicUrl).toBe('https://chat.example');
    expect(config.embeddings).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-e', model: 'text-embedding-3-small' });
    expect(config.transcription).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: undefined, model: 'whisper-1' });
    expect(config.providers.openai.apiKey).toBe('sk-o');
    expect(config.trustProxy).toBe(1);
  });

  it('stops with one message naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'http', LOG_LEVEL: 'loud' })).toThrow(/^Invalid configuration: PORT must be a port number; LOG_LEVEL must be one of: /);
    expect(() => loadConfig({ PLAN_MODELS: 'gpt-4' })).toThrow('Invalid configuration: PLAN_MODELS must list model names from: alpha-4o-mini');
    expect(() => loadConfig({ ANALYSIS_CUSTOM_FIELDS: '{"bad name":"x"}' })).toThrow(/^Invalid configuration: ANALYSIS_CUSTOM_FIELDS /);
  });

  it('transcribes offline from server/transcription-runtime in the language it hears unless told one', () => {
    expect(loadConfig({}).localTranscription).toEqual({ runtimeDir: path.resolve(import.meta.dirname, '../transcription-runtime'), language: 'auto' });
    expect(loadConfig({ LOCAL_TRANSCRIPTION_DIR: '/opt/whisper', LOCAL_TRANSCRIPTION_LANGUAGE: 'DE' }).localTranscription).toEqual({ runtimeDir: '/opt/whisper', language: 'de' });
    expect(loadConfig({ LOCAL_TRANSCRIPTION: 'false' }).localTranscription).toBeUndefined();
    expect(() => loadConfig({ LOCAL_TRANSCRIPTION_LANGUAGE: 'German' })).toThrow('Invalid configuration: LOCAL_TRANSCRIPTION_LANGUAGE must be auto or a language code such as en, de or fr');
  });

  it('refuses TRUST_PROXY=true (any client could forge its address) and takes a hop count or addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true trusts any client's X-Forwarded-For/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
