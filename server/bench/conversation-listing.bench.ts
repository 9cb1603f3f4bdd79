import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { destination, pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/db/ids.js';
import { ConversationsRepository } from '../src/features/conversations/conversations.repository.js';
import { createServices } from '../src/services.js';
import { fmt, type Benchmark } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';

const SOURCES = ['app', 'website', 'link', 'chatserver', 'automation'] as const;
const DAY_MS = 86_400_000;

/** A realistic stored conversation: six messages and a finished analysis. */
function conversationRow(organisationId: string, chatbotId: string, createdAt: number, i: number) {
  const messages = [
    { text: `Hello, I have a question about order ${i}. When will it arrive?`, fromUser: true },
    { text: 'Orders ship within two working days and arrive three to five days later, depending on the destination.', fromUser: false },
    { text: 'Can I change the delivery address after ordering?', fromUser: true },
    { text: 'Yes, as long as the order has not shipped. Use the link in your confirmation email to change it.', fromUser: false },
    { text: 'Great, thanks for the help!', fromUser: true },
    { text: 'You are welcome. Anything else I can do for you?', fromUser: false },
  ];
  const result = {
    summary: 'The visitor asked: "When will it arrive? Can I change the delivery address after ordering?"',
    extractedData: { keyPoints: ['Visitor: When will it arrive?', 'Chatbot: Orders ship within two working days.'], nextSteps: [], sentimentAnalysis: 'positive', intentClassification: 'information' },
    customExtractedData: {}, unansweredQuestions: [],
  };
  const type = SOURCES[i % SOURCES.length]!;
  return {
    id: newId(createdAt), organisation_id: organisationId, chatbot_id: chatbotId, user_id: null, created_at: createdAt, updated_at: createdAt,
    messages: JSON.stringify(messages), source_type: type, source: JSON.stringify({ type }), analysis_status: 'DONE', analysis_result: JSON.stringify(result),
  };
}

async function seed(db: Knex, organisationId: string, chatbotId: string, count: number, now: number): Promise<void> {
  // Spread over the last 30 days, so a one-day range selects about 1/30 of them.
  const rows = Array.from({ length: count }, (_, i) => conversationRow(organisationId, chatbotId, now - Math.floor((i / count) * 30 * DAY_MS), i));
  await db.batchInsert('conversations', rows, 500);
}

/** Median latency and the body size of `rounds` sequential GETs. */
async function measure(url: string, apiKey: string, rounds: number): Promise<{ p50Ms: number; bytes: number; count: number }> {
  const agent = new http.Agent({ keepAlive: true });
  const times: number[] = [];
  let bytes = 0;
  let count = 0;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const body = await new Promise<string>((resolve, reject) => {
      http.get(url, { agent, headers: { 'x-api-key': apiKey } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`status ${res.statusCode}`))));
      }).on('error', reject);
    });
    times.push(performance.now() - started);
    bytes = Buffer.byteLength(body);
    count = (JSON.parse(body) as { conversations: unknown[] }).conversations.length;
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50Ms: times[Math.floor(times.length / 2)]!, bytes, count };
}

async function median(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** The plan's node types, outermost first (e.g. "Incremental Sort > Index Scan"). */
async function planOf(db: Knex, chatbotId: string, start: number, end: number): Promise<string> {
  const result = await db.raw(
    // The listing query's access path: the same WHERE and aggregate ordering as listItemsJson.
    `EXPLAIN (FORMAT JSON) SELECT json_agg(messages ORDER BY created_at DESC, id DESC) FROM conversations
     WHERE chatbot_id = ? AND created_at BETWEEN ? AND ?`, [chatbotId, start, end]);
  type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };
  const raw = result.rows[0]['QUERY PLAN'];
  let node: PlanNode | undefined = (typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan;
  const names: string[] = [];
  while (node) {
    names.push(node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type']);
    node = node.Plans?.[0];
  }
  return names.join(' > ');
}

/**
 * GET /v1/conversation/{chatbotId} with 10k conversations (BENCH_FULL: 50k) against the same
 * listing of a chatbot with a tenth as many on the same database: growth should be linear in
 * the conversations returned, and a narrow time range should cost the same on both (the index).
 */
export const benchmark: Benchmark = {
  name: 'GET /v1/conversation/{chatbotId}: 10k conversations without paging',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const large = ctx.full ? 50_000 : 10_000;
    const small = large / 10;
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'info', JOBS_ENABLED: 'false' });
    const services = createServices(config, database, pino({ level: 'info' }, destination({ dest: '/dev/null', sync: false })));
    const org = await services.organisations.createOrganisation({ name: 'Bench' });
    const auth = (await services.organisations.authenticate(org.apiKey))!;
    const create = (name: string) => services.chatbots.create(auth, { name, resourceIds: [], showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi', chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8', enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [] });
    const smallBot = await create('Small');
    const largeBot = await create('Large');
    const now = Date.now();
    const seeded = performance.now();
    await seed(database.db, org.organisationId, smallBot.id, small, now);
    await seed(database.db, org.organisationId, largeBot.id, large, now);
    await database.db.raw('ANALYZE conversations');
    ctx.report('seed', { conversations: small + large, seconds: fmt((performance.now() - seeded) / 1000, 1) });

    const server = createApp(services).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/conversation`;
    const rounds = ctx.full ? 9 : 5;
    await measure(`${url}/${largeBot.id}`, org.apiKey, 1);
    const smallAll = await measure(`${url}/${smallBot.id}`, org.apiKey, rounds);
    const largeAll = await measure(`${url}/${largeBot.id}`, org.apiKey, rounds);
    const dayRange = `?start=${now - DAY_MS}&end=${now}`;
    const smallDay = await measure(`${url}/${smallBot.id}${dayRange}`, org.apiKey, rounds * 3);
    const largeDay = await measure(`${url}/${largeBot.id}${dayRange}`, org.apiKey, rounds * 3);
    const largeOneSource = await measure(`${url}/${largeBot.id}?sources=website`, org.apiKey, rounds);
    const repository = new ConversationsRepository(database.db);
    const dbOnly = await median(rounds, () => repository.listItemsJson(largeBot.id, 0, now, []));

    ctx.report(`all ${small} (baseline)`, { 'p50 ms': fmt(smallAll.p50Ms, 1), MB: fmt(smallAll.bytes / 1e6) });
    ctx.report(`all ${large}`, {
      'p50 ms': fmt(largeAll.p50Ms, 1), MB: fmt(largeAll.bytes / 1e6), returned: largeAll.count,
      'ms per 1k': fmt(largeAll.p50Ms / (large / 1000), 1),
    });
    ctx.report(`growth ${large}/${small} (linear = 10)`, { 'p50 ratio': fmt(largeAll.p50Ms / smallAll.p50Ms) });
    ctx.report('one-day range (index-bound)', {
      [`${small} p50 ms`]: fmt(smallDay.p50Ms, 1), [`${large} p50 ms`]: fmt(largeDay.p50Ms, 1),
      'returned (small/large)': `${smallDay.count}/${largeDay.count}`,
    });
    ctx.report(`one source of 5 (${large})`, { 'p50 ms': fmt(largeOneSource.p50Ms, 1), returned: largeOneSource.count });
    ctx.report(`database share of all ${large}`, { 'query ms': fmt(dbOnly, 1), share: fmt(dbOnly / largeAll.p50Ms) });
    ctx.report('plan, one-day range', { plan: await planOf(database.db, largeBot.id, now - DAY_MS, now) });
    ctx.report('plan, whole history', { plan: await planOf(database.db, largeBot.id, 0, now) });
    server.closeAllConnections();
    server.close();
    await database.close();
  },
};
