import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { destination, pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openLiveStream, type LiveStreamClient } from '../src/features/handoff/live-stream.test-support.js';
import { createServices } from '../src/services.js';
import { fmt, type Benchmark } from './bench-kit.js';
import { benchDatabase } from './bench-database.js';

const STREAMS = 200;
const VISITORS_PER_CHATBOT = 10;

function percentiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * A bare LISTEN/NOTIFY round trip on the same server: one connection notifies, another listens.
 * `durable`: the notification is sent in a transaction that also inserts a row, so the time holds
 * a commit written to disk, as storing a reply does.
 */
async function bareRoundTrip(url: string, rounds: number, durable = false): Promise<number[]> {
  const listener = new pg.Client({ connectionString: url });
  const notifier = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), notifier.connect()]);
  await listener.query('LISTEN bench_round_trip');
  if (durable) await notifier.query('CREATE TABLE IF NOT EXISTS bench_notes (id serial PRIMARY KEY, note text)');
  let arrived: () => void = () => {};
  listener.on('notification', () => arrived());
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const received = new Promise<void>((resolve) => { arrived = resolve; });
    const started = performance.now();
    if (durable) await notifier.query("BEGIN; INSERT INTO bench_notes (note) VALUES ('x'); SELECT pg_notify('bench_round_trip', 'x'); COMMIT");
    else await notifier.query("SELECT pg_notify('bench_round_trip', 'x')");
    await received;
    times.push(performance.now() - started);
  }
  await Promise.all([listener.end(), notifier.end()]);
  return times;
}

/**
 * Live handoff (issue 35): from a team member's reply (`POST /v1/conversation/{id}/messages`) to
 * the event on that visitor's stream, with 200 visitor streams open on the instance, against a bare
 * LISTEN/NOTIFY round trip on the same PostgreSQL server in the same run.
 */
export const benchmark: Benchmark = {
  name: 'live handoff: member reply → visitor stream, 200 open streams',
  databases: ['postgres'],
  async run(ctx) {
    const rounds = ctx.full ? 400 : 100;
    const database = await benchDatabase(ctx.database);
    const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'info', JOBS_ENABLED: 'false', LOCAL_SENTENCE_ENCODER: 'false' });
    const services = createServices(config, database, pino({ level: 'info' }, destination({ dest: '/dev/null', sync: false })));
    const server = createApp(services).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const org = await services.organisations.createOrganisation({ name: 'Bench' });
    const streams: { id: string; client: LiveStreamClient }[] = [];
    try {
      // Several visitors per chatbot, as on a busy site.
      for (let c = 0; c < STREAMS / VISITORS_PER_CHATBOT; c++) {
        const created = await fetch(`${base}/v1/chatbot`, {
          method: 'POST', headers: { 'x-api-key': org.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Shop ${c}` }),
        });
        const chatbotId = ((await created.json()) as { id: string }).id;
        const chatbot = (await services.chatbotsRepository.findPublic(chatbotId))!;
        for (let v = 0; v < VISITORS_PER_CHATBOT; v++) {
          const saved = await services.conversations.saveForVisitor(chatbot, 'website', { messages: [{ text: 'Hello', fromUser: true }], override: true });
          // Each visitor from its own loopback address, as visitors come from their own.
          const client = await openLiveStream(`${base}/v1/embed/${chatbotId}/conversation/${saved.id}/events`, { 'x-visitor-token': saved.visitorToken },
            `127.0.${1 + Math.floor(streams.length / 250)}.${1 + (streams.length % 250)}`);
          if (client.status !== 200) throw new Error(`visitor stream answered ${client.status}`);
          streams.push({ id: saved.id, client });
        }
      }
      ctx.report('setup', { 'open visitor streams': streams.length });

      const answered: number[] = [];
      const reply = async (round: number) => {
        const { id, client } = streams[round % streams.length]!;
        const from = client.events.length;
        const text = `Reply ${round}`;
        const started = performance.now();
        const res = await fetch(`${base}/v1/conversation/${id}/messages`, {
          method: 'POST', headers: { 'x-api-key': org.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ text }),
        });
        if (res.status !== 201) throw new Error(`reply answered ${res.status}`);
        answered.push(performance.now() - started);
        await client.waitFor(({ event }) => event.type === 'message' && event.message.text === text, from);
        return performance.now() - started;
      };
      for (let round = 0; round < 20; round++) await reply(round);
      const url = database.serviceEnv.DATABASE_URL!;
      await bareRoundTrip(url, 20);
      // Alternating halves, so drift on a shared machine touches both alike.
      const bare: number[] = [];
      const durable: number[] = [];
      const live: number[] = [];
      for (let half = 0; half < 2; half++) {
        bare.push(...await bareRoundTrip(url, rounds / 2));
        durable.push(...await bareRoundTrip(url, rounds / 2, true));
        for (let round = 0; round < rounds / 2; round++) live.push(await reply(half * rounds + round));
      }
      const b = percentiles(bare);
      const l = percentiles(live);
      const d = percentiles(durable);
      ctx.report('bare LISTEN/NOTIFY round trip (baseline)', { 'p50 ms': fmt(b.p50), 'p99 ms': fmt(b.p99), rounds: bare.length });
      ctx.report('  the same with an insert, committed', { 'p50 ms': fmt(d.p50), 'p99 ms': fmt(d.p99), rounds: durable.length });
      ctx.report('member reply → visitor stream event', { 'p50 ms': fmt(l.p50), 'p99 ms': fmt(l.p99), rounds: live.length });
      const a = percentiles(answered.slice(20));
      ctx.report('  of which the reply\'s own response', { 'p50 ms': fmt(a.p50), 'p99 ms': fmt(a.p99) });
      ctx.report('ratio (reply / bare)', { p50: fmt(l.p50 / b.p50, 1), p99: fmt(l.p99 / b.p99, 1) });
      ctx.report('ratio (reply / committed insert)', { p50: fmt(l.p50 / d.p50, 1), p99: fmt(l.p99 / d.p99, 1) });
    } finally {
      for (const { client } of streams) client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.handoff.events.close();
      await database.close();
    }
  },
};
