import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ModelSchema, formatIssues, type Model } from '@parley/shared';
import type { AdmissionOptions } from './admission/fair-admission.js';
import type { RequestTimeouts } from './http/request-deadline.js';
import type { S3Settings } from './storage/s3-file-store.js';

const optionalInt = z.string().trim().regex(/^\d+$/, 'must be a non-negative integer').transform(Number).optional();
const flag = z.enum(['true', 'false', '1', '0', '']).optional().transform((value) => value === 'true' || value === '1');
const optionalString = z.string().trim().optional().transform((value) => (value ? value : undefined));

const EnvSchema = z.object({
  PORT: z.string().regex(/^\d+$/, 'must be a port number').default('3000').transform(Number),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalString,
  TRUST_PROXY: optionalString,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  DATABASE_POOL_MAX: z.string().regex(/^\d+$/).default('10').transform(Number),
  DATABASE_NAMED_STATEMENTS: z.enum(['true', 'false', '1', '0']).default('true').transform((value) => value === 'true' || value === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BOOTSTRAP_API_KEY: optionalString,
  PLAN_MONTHLY_MESSAGES: optionalInt,
  PLAN_MAX_RESOURCES: optionalInt,
  PLAN_MAX_STORAGE_BYTES: optionalInt,
  PLAN_MODELS: optionalString,
  RESOURCE_CREATION_RATE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('10').transform(Number),
  CRAWL_ALLOW_PRIVATE_NETWORKS: flag,
  VIDEO_HOST_URL: optionalString,
  TRANSCRIPTION_BASE_URL: optionalString,
  TRANSCRIPTION_API_KEY: optionalString,
  TRANSCRIPTION_MODEL: z.string().trim().min(1).default('whisper-1'),
  LOCAL_TRANSCRIPTION: z.enum(['true', 'false', '1', '0']).default('true').transform((value) => value === 'true' || value === '1'),
  LOCAL_TRANSCRIPTION_DIR: optionalString,
  LOCAL_TRANSCRIPTION_LANGUAGE: z.string().trim().toLowerCase().regex(/^([a-z]{2,3}|auto)$/, 'must be auto or a language code such as en, de or fr').default('auto'),
  EMBEDDINGS_BASE_URL: optionalString,
  EMBEDDINGS_API_KEY: optionalString,
  EMBEDDINGS_MODEL: z.string().trim().min(1).default('text-embedding-3-small'),
  SYNC_CHECK_INTERVAL_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('60000').transform(Number),
  JOBS_ENABLED: z.enum(['true', 'false', '1', '0']).default('true').transform((value) => value === 'true' || value === '1'),
  JOB_CONCURRENCY: z.string().regex(/^\d+$/).default('2').transform(Number),
  JOB_MAX_PER_ORGANISATION: z.string().regex(/^\d+$/, 'must be a positive integer').optional().transform((value) => (value === undefined ? undefined : Number(value))),
  EMBED_SESSION_SECRET: optionalString,
  EMBED_SESSION_TTL_MINUTES: z.string().regex(/^\d+$/, 'must be a positive integer').default('1440').transform(Number),
  EMBED_SESSION_RATE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('10').transform(Number),
  EMBED_VISITOR_RATE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('60').transform(Number),
  EMBED_CHATBOT_RATE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('600').transform(Number),
  PARSE_TIMEOUT_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('120000').transform(Number),
  PARSE_MEMORY_MB: z.string().regex(/^\d+$/, 'must be a positive integer').default('1024').transform(Number),
  OCR_MAX_PAGES: z.string().regex(/^\d+$/, 'must be a non-negative integer').default('100').transform(Number),
  OCR_MAX_SECONDS: z.string().regex(/^\d+$/, 'must be a non-negative integer').default('600').transform(Number),
  CRAWL_MAX_DURATION_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('1800000').transform(Number),
  EMBED_VISITOR_DAILY_MESSAGES: z.string().regex(/^\d+$/, 'must be a positive integer').default('200').transform(Number),
  EMBED_CHATBOT_DAILY_MESSAGES: z.string().regex(/^\d+$/, 'must be a positive integer').default('5000').transform(Number),
  EMBED_PLAN_SHARE_PERCENT: z.string().regex(/^\d+$/, 'must be an integer from 0 to 100').default('80').transform(Number)
    .refine((value) => value <= 100, 'must be an integer from 0 to 100'),
  WIDGET_DIR: optionalString,
  CONSOLE_DIR: optionalString,
  CONSOLE_SESSION_TTL_MINUTES: z.string().regex(/^\d+$/, 'must be a positive integer').default('720').transform(Number),
  CONSOLE_SIGN_IN_RATE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('20').transform(Number),
  CONSOLE_SIGN_IN_KEY_RATE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('10').transform(Number),
  CONSOLE_SESSIONS_PER_KEY: z.string().regex(/^\d+$/, 'must be a positive integer').default('10').transform(Number),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  MODEL_MAP: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString,
  GOOGLE_GENERATIVE_AI_API_KEY: optionalString,
  GOOGLE_BASE_URL: optionalString,
  CHAT_CONTEXT_CHUNKS: z.string().regex(/^\d+$/, 'must be a positive integer').default('8').transform(Number),
  LOCAL_SENTENCE_ENCODER: z.enum(['true', 'false', '1', '0']).default('true').transform((value) => value === 'true' || value === '1'),
  RESOURCE_CHAT_MODEL: ModelSchema.default('alpha-4o-mini'),
  SSE_HEARTBEAT_MS: z.string().regex(/^\d+$/, 'must be a non-negative integer').default('15000').transform(Number),
  ANALYSIS_CUSTOM_FIELDS: optionalString,
  ANALYSIS_DELAY_MS: z.string().regex(/^\d+$/, 'must be a non-negative integer').default('3000').transform(Number),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalString,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: flag,
  S3_PREFIX: z.string().trim().default(''),
  JOB_LEASE_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('60000').transform(Number),
  JOB_RETENTION_DAYS: z.string().regex(/^\d+$/, 'must be a non-negative integer').default('14').transform(Number),
  REQUEST_TIMEOUT_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('300000').transform(Number),
  UPLOAD_TIMEOUT_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('10800000').transform(Number),
  ADMISSION_CONCURRENCY: z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number).optional(),
  ADMISSION_QUEUE_LIMIT: z.string().regex(/^\d+$/, 'must be a positive integer').default('5000').transform(Number),
  ADMISSION_MAX_WAIT_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('30000').transform(Number),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag,
  WEBHOOK_TIMEOUT_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('10000').transform(Number),
  WEBHOOK_RETRY_BASE_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('5000').transform(Number),
  WEBHOOK_RETRY_MAX_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('3600000').transform(Number),
  WEBHOOK_RETRY_FOR_MS: z.string().regex(/^\d+$/, 'must be a positive integer').default('86400000').transform(Number),
  SMTP_URL: optionalString,
  MAIL_FROM: optionalString,
});

export type ModelFamily = 'openai' | 'anthropic' | 'google';

/** The API's model names and the provider model each one runs on (decisions.md § Chat and streaming). */
export const MODEL_TABLE: Record<Model, { family: ModelFamily; providerModel: string }> = {
  'alpha-4o-mini': { family: 'openai', providerModel: 'gpt-4o-mini' },
  'alpha-5-mini': { family: 'openai', providerModel: 'gpt-5-mini' },
  // The realtime models speak only the Realtime API (WebSocket/WebRTC); chat answers go through Chat
  // Completions, so these names run on the chat model of the same generation.
  'alpha-realtime': { family: 'openai', providerModel: 'gpt-4o' },
  'alpha-4o-mini-realtime-preview': { family: 'openai', providerModel: 'gpt-4o-mini' },
  'beta-sonnet-4.6': { family: 'anthropic', providerModel: 'claude-sonnet-4-6' },
  'beta-haiku-4.5': { family: 'anthropic', providerModel: 'claude-haiku-4-5' },
  'gamma-3-pro': { family: 'google', providerModel: 'gemini-3-pro-preview' },
  'gamma-3-flash': { family: 'google', providerModel: 'gemini-3-flash-preview' },
};

/** A plan's limits; `undefined` means unlimited. */
export interface PlanLimits {
  monthlyMessages?: number;
  maxResources?: number;
  maxStorageBytes?: number;
  models?: Model[];
}

export interface ProviderCredentials { apiKey?: string; baseUrl?: string }

/** An operator-defined field the conversation analysis extracts into `customExtractedData`. */
export interface AnalysisCustomField { name: string; description: string }

/** The whole service configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Limits of the child process that parses uploaded files and crawled pages (issue 14). */
  parserLimits: { timeoutMs: number; memoryMb: number };
  /** Pages of one PDF read by OCR at most (pages without a text layer; 0 turns OCR off). */
  ocrMaxPages: number;
  /** OCR time of one PDF at most, in ms (OCR_MAX_SECONDS); the pages read by then are kept. */
  ocrMaxMs: number;
  /** A website crawl stops after this long, keeping the pages read so far. */
  crawlMaxDurationMs: number;
  /** Express `trust proxy`: false, a hop count, or the proxies' addresses (never `true`). */
  trustProxy: false | number | string;
  dataDir: string;
  databaseUrl?: string;
  databasePoolMax: number;
  /** A chat question's queries as named prepared statements on a PostgreSQL server (off behind a pooler that cannot keep them). */
  databaseNamedStatements: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  bootstrapApiKey?: string;
  defaultPlan: PlanLimits;
  resourceCreationRateLimit: number;
  crawlAllowPrivateNetworks: boolean;
  videoHostUrl?: string;
  /** OpenAI-compatible `/audio/transcriptions` for videos without subtitles; absent: disabled. */
  transcription?: { baseUrl: string; apiKey?: string; model: string };
  /**
   * Offline Whisper for videos without subtitles when no transcription provider is configured:
   * where `npm run install:transcription` puts its runtime (found at run time); absent: disabled.
   */
  localTranscription?: { runtimeDir: string; language: string };
  /** OpenAI-compatible `/embeddings` for hybrid retrieval; absent: full-text ranking only. */
  embeddings?: { baseUrl: string; apiKey?: string; model: string };
  /** How often due website re-syncs are looked for. */
  syncCheckIntervalMs: number;
  jobsEnabled: boolean;
  jobConcurrency: number;
  /**
   * Job slots one organisation may hold while another organisation's job waits (absent: no cap;
   * the claim order and yielding share the slots, job-worker.ts). Alone, a tenant uses every slot.
   */
  jobMaxPerOrganisation?: number;
  /** How long a claimed job is a worker's before another instance may take it over (a crashed instance's jobs). */
  jobLeaseMs: number;
  /** Finished jobs are deleted this long after they finished; 0 keeps them. */
  jobRetentionMs?: number;
  embedSessionSecret?: string;
  /** Public embed traffic (decisions.md § Public embed traffic): session lifetime and rate limits. */
  embed: {
    sessionTtlMs: number;
    /** Password attempts per visitor and chatbot per 15 minutes. */
    sessionAttemptsPer15Min: number;
    /** Chat, save and lead requests per visitor and chatbot per minute. */
    visitorRequestsPerMinute: number;
    /** Chat requests per chatbot per minute, all visitors together. */
    chatbotChatsPerMinute: number;
    /** Chat messages one visitor (address) may send one chatbot per day: its share of the chatbot's budget. */
    visitorMessagesPerDay: number;
    /** Chat messages a chatbot answers visitors per day, unless its owner set `websiteIntegration.dailyVisitorMessages`. */
    chatbotMessagesPerDay: number;
    /** The share (percent) of an organisation's monthly messages that visitors may spend; the rest stays the owner's. */
    planSharePercent: number;
  };
  /** Where the built widget (widget.js and its chunks) is served from. */
  widgetDir: string;
  /** Where the built owner console is served from (at `/`). */
  consoleDir: string;
  /** Lifetime of an owner console session (its cookie). */
  consoleSessionTtlMs: number;
  /** Live console sessions one API key may hold; a sign-in beyond it removes the key's oldest. */
  consoleSessionsPerKey: number;
  /** Console sign-in attempts per 15 minutes: per client address, and per API key tried (shared by every instance). */
  consoleSignIn: { attemptsPerAddress: number; attemptsPerKey: number };
  providers: Record<ModelFamily, ProviderCredentials>;
  /** The provider model that answers an API model name instead of MODEL_TABLE's (MODEL_MAP). */
  modelMap: Partial<Record<Model, string>>;
  /** Passages retrieved as context for each chat question. */
  chatContextChunks: number;
  /** Whether the local engine ranks sentences by meaning too (Universal Sentence Encoder lite, offline). */
  localSentenceEncoder: boolean;
  /** The model of `/v1/resource/chat*` (a resource has no model of its own). */
  resourceChatModel: Model;
  /** Gap between SSE heartbeat comments on an idle stream; 0 disables them. */
  sseHeartbeatMs: number;
  analysisCustomFields: AnalysisCustomField[];
  /** How long after a save its analysis starts; saves meanwhile share that one analysis. */
  analysisDelayMs: number;
  /** S3-compatible object storage for uploaded files; absent: `DATA_DIR/files`. */
  objectStorage?: S3Settings;
  /** How long a request, and a file upload, may take to arrive. */
  requestTimeouts: RequestTimeouts;
  /** How many answers are prepared at once per instance, and how long a question may wait its turn. */
  admission: AdmissionOptions;
  /** Webhook delivery (issue 36). */
  webhooks: WebhookSettings;
  /** Notification mail through SMTP; absent: mail is off. */
  mail?: { smtpUrl: string; from: string };
}

/** How webhooks are sent and retried. */
export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: endpoints may be on private and loopback addresses (tests, intranets). */
  allowPrivateNetworks: boolean;
  /** Each request's deadline. */
  timeoutMs: number;
  /** The first retry's delay; each next one doubles, with jitter, up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A message is retried this long after its first attempt; an endpoint failing this long is disabled. */
  retryForMs: number;
  /** The most of a response's body that is read. */
  maxResponseBytes: number;
}

/**
 * `MODEL_MAP`: `alpha-4o-mini=llama3.1:8b,alpha-5-mini=qwen2.5:14b` — which model of its provider
 * answers an API model name, so a local OpenAI-compatible server (Ollama, llama.cpp, vLLM) serves
 * the names the API knows with the models it has. A provider model may hold `=` and `:` but no comma.
 */
export function parseModelMap(value: string | undefined): Partial<Record<Model, string>> {
  const map: Partial<Record<Model, string>> = {};
  if (value === undefined) return map;
  for (const entry of value.split(',').map((part) => part.trim()).filter(Boolean)) {
    const separator = entry.indexOf('=');
    const name = separator < 0 ? entry : entry.slice(0, separator).trim();
    const providerModel = separator < 0 ? '' : entry.slice(separator + 1).trim();
    const model = ModelSchema.safeParse(name);
    if (!model.success) throw new Error(`names "${name}", which is not a model name (${ModelSchema.options.join(', ')})`);
    if (!providerModel) throw new Error(`gives no provider model for ${name} (write ${name}=<model of your provider>)`);
    if (map[model.data] !== undefined) throw new Error(`maps ${name} twice`);
    map[model.data] = providerModel;
  }
  return map;
}

function parsePlanModels(value: string | undefined): Model[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  return z.array(ModelSchema).parse(names);
}

const CUSTOM_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * `ANALYSIS_CUSTOM_FIELDS`: a JSON object `{"budget": "The visitor's budget"}` or a list
 * `budget: The visitor's budget; company: Where the visitor works` (`;` or newline separated).
 */
export function parseAnalysisCustomFields(value: string | undefined): AnalysisCustomField[] {
  if (value === undefined) return [];
  const entries: [string, unknown][] = value.startsWith('{')
    ? Object.entries(JSON.parse(value) as Record<string, unknown>)
    : value.split(/[;\n]/).map((part) => part.trim()).filter(Boolean).map((part) => {
      const colon = part.indexOf(':');
      return colon < 0 ? [part, ''] : [part.slice(0, colon).trim(), part.slice(colon + 1).trim()];
    });
  return entries.map(([name, description]) => {
    if (!CUSTOM_FIELD_NAME.test(name) || typeof description !== 'string' || !description.trim()) {
      throw new Error(`field "${name}" needs a name of letters, digits and _ and a description`);
    }
    return { name, description: description.trim() };
  });
}

/**
 * `TRUST_PROXY`: a hop count or the proxies' addresses. `true` would take the client's address
 * from whatever `X-Forwarded-For` a client sends (any visitor could pick its own rate-limit key),
 * so it is refused.
 */
function parseTrustProxy(value: string | undefined): false | number | string {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new Error('Invalid configuration: TRUST_PROXY=true trusts any client\'s X-Forwarded-For; give the number of proxies in front (1) or their addresses');
  }
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Runs a parser of one variable, turning its failure into a configuration error that names it. */
function explained<T>(name: string, explain: (err: unknown) => string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new Error(`Invalid configuration: ${name} ${explain(err)}`, { cause: err });
  }
}

/** An OpenAI-compatible endpoint, enabled by its base URL or its key (the URL defaults to OpenAI's). */
function openAiCompatible(baseUrl: string | undefined, apiKey: string | undefined, model: string) {
  return baseUrl || apiKey ? { baseUrl: baseUrl ?? 'https://api.openai.com/v1', apiKey, model } : undefined;
}

/** `S3_*`: object storage for uploads when a bucket is named. */
function objectStorageOf(e: z.infer<typeof EnvSchema>): S3Settings | undefined {
  return e.S3_BUCKET ? {
    bucket: e.S3_BUCKET, endpoint: e.S3_ENDPOINT, region: e.S3_REGION, accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY, forcePathStyle: e.S3_FORCE_PATH_STYLE, prefix: e.S3_PREFIX,
  } : undefined;
}

/** Offline transcription, unless LOCAL_TRANSCRIPTION=false: its runtime's folder (server/transcription-runtime) and language. */
function localTranscriptionOf(e: z.infer<typeof EnvSchema>): Config['localTranscription'] {
  if (!e.LOCAL_TRANSCRIPTION) return undefined;
  const runtimeDir = e.LOCAL_TRANSCRIPTION_DIR ?? fileURLToPath(new URL('../transcription-runtime', import.meta.url));
  return { runtimeDir: path.resolve(runtimeDir), language: e.LOCAL_TRANSCRIPTION_LANGUAGE };
}

/** Owner console sessions: lifetime, how many a key keeps, and the sign-in limits. */
function consoleSessionsOf(e: z.infer<typeof EnvSchema>): Pick<Config, 'consoleSessionTtlMs' | 'consoleSessionsPerKey' | 'consoleSignIn'> {
  return {
    consoleSessionTtlMs: Math.max(1, e.CONSOLE_SESSION_TTL_MINUTES) * 60_000,
    consoleSessionsPerKey: Math.max(1, e.CONSOLE_SESSIONS_PER_KEY),
    consoleSignIn: { attemptsPerAddress: Math.max(1, e.CONSOLE_SIGN_IN_RATE_LIMIT), attemptsPerKey: Math.max(1, e.CONSOLE_SIGN_IN_KEY_RATE_LIMIT) },
  };
}

/** Public embed traffic: session lifetime and the limits that protect an owner from anonymous visitors. */
function embedLimitsOf(e: z.infer<typeof EnvSchema>): Config['embed'] {
  return {
    sessionTtlMs: Math.max(1, e.EMBED_SESSION_TTL_MINUTES) * 60_000,
    sessionAttemptsPer15Min: Math.max(1, e.EMBED_SESSION_RATE_LIMIT),
    visitorRequestsPerMinute: Math.max(1, e.EMBED_VISITOR_RATE_LIMIT),
    chatbotChatsPerMinute: Math.max(1, e.EMBED_CHATBOT_RATE_LIMIT),
    visitorMessagesPerDay: Math.max(1, e.EMBED_VISITOR_DAILY_MESSAGES),
    chatbotMessagesPerDay: Math.max(1, e.EMBED_CHATBOT_DAILY_MESSAGES),
    planSharePercent: e.EMBED_PLAN_SHARE_PERCENT,
  };
}

/**
 * Answers prepared at once when ADMISSION_CONCURRENCY is unset. A preparation mostly waits on the
 * database: PostgreSQL serves 16 at once better than 4 (burst p50 4.5-5.5 s against 6.2-6.3 s);
 * PGlite has one connection, so more only queue on it and slow /health (p99 205-210 ms against 92-202 ms).
 */
function defaultAdmissionConcurrency(databaseUrl: string | undefined): number {
  return databaseUrl ? 16 : 4;
}

/** The host of the default PUBLIC_URL: the address listened on, or `localhost` when it is every address. */
function hostInUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** The model providers' credentials, and which of their models answer the API's names. */
function providersOf(e: z.infer<typeof EnvSchema>): Pick<Config, 'providers' | 'modelMap'> {
  return {
    providers: {
      openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
      anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL },
      google: { apiKey: e.GOOGLE_GENERATIVE_AI_API_KEY, baseUrl: e.GOOGLE_BASE_URL },
    },
    modelMap: explained('MODEL_MAP', (err) => (err instanceof Error ? err.message : String(err)), () => parseModelMap(e.MODEL_MAP)),
  };
}

/** Webhook delivery and notification mail (issue 36). */
function notificationsOf(e: z.infer<typeof EnvSchema>): Pick<Config, 'webhooks' | 'mail'> {
  const retryBaseMs = Math.max(1, e.WEBHOOK_RETRY_BASE_MS);
  return {
    webhooks: {
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS, timeoutMs: Math.max(100, e.WEBHOOK_TIMEOUT_MS), retryBaseMs,
      retryMaxMs: Math.max(retryBaseMs, e.WEBHOOK_RETRY_MAX_MS), retryForMs: Math.max(1, e.WEBHOOK_RETRY_FOR_MS), maxResponseBytes: 64 * 1024,
    },
    mail: e.SMTP_URL ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? 'Parley <parley@localhost>' } : undefined,
  };
}

/** Reads and validates the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid configuration: ${formatIssues(parsed.error.issues, 'environment').join('; ')}`);
  const e = parsed.data;
  const analysisCustomFields = explained('ANALYSIS_CUSTOM_FIELDS', (err) => (err instanceof Error ? err.message : String(err)),
    () => parseAnalysisCustomFields(e.ANALYSIS_CUSTOM_FIELDS));
  const models = explained('PLAN_MODELS', () => `must list model names from: ${ModelSchema.options.join(', ')}`,
    () => parsePlanModels(e.PLAN_MODELS));
  return {
    port: e.PORT,
    host: e.HOST,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    publicUrl: (e.PUBLIC_URL ?? `http://${hostInUrl(e.HOST)}:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databaseNamedStatements: e.DATABASE_NAMED_STATEMENTS,
    logLevel: e.LOG_LEVEL,
    bootstrapApiKey: e.BOOTSTRAP_API_KEY,
    defaultPlan: {
      monthlyMessages: e.PLAN_MONTHLY_MESSAGES,
      maxResources: e.PLAN_MAX_RESOURCES,
      maxStorageBytes: e.PLAN_MAX_STORAGE_BYTES,
      models,
    },
    resourceCreationRateLimit: Math.max(1, e.RESOURCE_CREATION_RATE_LIMIT),
    crawlAllowPrivateNetworks: e.CRAWL_ALLOW_PRIVATE_NETWORKS,
    videoHostUrl: e.VIDEO_HOST_URL,
    transcription: openAiCompatible(e.TRANSCRIPTION_BASE_URL, e.TRANSCRIPTION_API_KEY, e.TRANSCRIPTION_MODEL),
    localTranscription: localTranscriptionOf(e),
    embeddings: openAiCompatible(e.EMBEDDINGS_BASE_URL, e.EMBEDDINGS_API_KEY, e.EMBEDDINGS_MODEL),
    syncCheckIntervalMs: Math.max(1000, e.SYNC_CHECK_INTERVAL_MS),
    jobsEnabled: e.JOBS_ENABLED,
    jobConcurrency: Math.max(1, e.JOB_CONCURRENCY),
    ...(e.JOB_MAX_PER_ORGANISATION === undefined ? {} : { jobMaxPerOrganisation: Math.max(1, e.JOB_MAX_PER_ORGANISATION) }),
    jobLeaseMs: Math.max(1000, e.JOB_LEASE_MS),
    jobRetentionMs: e.JOB_RETENTION_DAYS > 0 ? e.JOB_RETENTION_DAYS * 24 * 60 * 60 * 1000 : undefined,
    embedSessionSecret: e.EMBED_SESSION_SECRET,
    embed: embedLimitsOf(e),
    parserLimits: { timeoutMs: Math.max(1000, e.PARSE_TIMEOUT_MS), memoryMb: Math.max(128, e.PARSE_MEMORY_MB) }, ocrMaxPages: e.OCR_MAX_PAGES, ocrMaxMs: e.OCR_MAX_SECONDS * 1000, crawlMaxDurationMs: Math.max(1000, e.CRAWL_MAX_DURATION_MS),
    widgetDir: path.resolve(e.WIDGET_DIR ?? fileURLToPath(new URL('../../widget/dist', import.meta.url))),
    consoleDir: path.resolve(e.CONSOLE_DIR ?? fileURLToPath(new URL('../../console/dist', import.meta.url))),
    ...consoleSessionsOf(e),
    ...providersOf(e),
    chatContextChunks: Math.max(1, e.CHAT_CONTEXT_CHUNKS),
    localSentenceEncoder: e.LOCAL_SENTENCE_ENCODER,
    resourceChatModel: e.RESOURCE_CHAT_MODEL,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    analysisCustomFields,
    analysisDelayMs: e.ANALYSIS_DELAY_MS,
    objectStorage: objectStorageOf(e),
    requestTimeouts: { requestMs: Math.max(1000, e.REQUEST_TIMEOUT_MS), uploadMs: Math.max(1000, e.UPLOAD_TIMEOUT_MS) },
    admission: { concurrency: Math.max(1, e.ADMISSION_CONCURRENCY ?? defaultAdmissionConcurrency(e.DATABASE_URL)), maxQueue: e.ADMISSION_QUEUE_LIMIT, maxWaitMs: e.ADMISSION_MAX_WAIT_MS },
    ...notificationsOf(e),
  };
}
