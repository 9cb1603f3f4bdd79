import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import type { LiveEvent } from '@parley/shared';
import pg from 'pg';
import type { Logger } from 'pino';

/** A stored live event: its number (the SSE `id:`), whose it is, and what happened. */
export interface StoredLiveEvent {
  id: number;
  organisationId: string;
  conversationId: string;
  event: LiveEvent;
}

type Listener = (event: StoredLiveEvent) => void;

/**
 * Delivers live events (handoff messages and state changes) to every instance's open streams:
 * through PostgreSQL `LISTEN`/`NOTIFY` on a PostgreSQL server, in process on PGlite (one process
 * owns the embedded database). Events are stored before they are published, so a stream that
 * missed some (a dropped connection, a dead instance) replays them from the table.
 */
export interface LiveEventBus {
  /** Publishes events written in `trx`; they reach listeners once it commits (never when it rolls back). */
  publish(trx: Knex.Transaction, events: readonly StoredLiveEvent[]): Promise<void>;
  /** Listens to one conversation's events, or to one organisation's. Returns the unsubscribe function. */
  subscribe(scope: { conversationId: string } | { organisationId: string }, listener: Listener): () => void;
  /** Called after the bus lost its connection and got it back: listeners should replay what they may have missed. */
  onResync(listener: () => void): () => void;
  /** Resolves once events published from now on reach this instance's listeners (a stream waits for it before replaying). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = 'parley_live';
// NOTIFY payloads must stay under 8000 bytes; a larger event is sent by number and read back.
const MAX_INLINE_BYTES = 7000;

/** Fans events out to the listeners of their conversation and organisation. */
class Hub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  subscribe(scope: { conversationId: string } | { organisationId: string }, listener: Listener): () => void {
    const key = 'conversationId' in scope ? `c:${scope.conversationId}` : `o:${scope.organisationId}`;
    this.emitter.on(key, listener);
    return () => { this.emitter.off(key, listener); };
  }

  onResync(listener: () => void): () => void {
    this.emitter.on('resync', listener);
    return () => { this.emitter.off('resync', listener); };
  }

  deliver(event: StoredLiveEvent): void {
    this.emitter.emit(`c:${event.conversationId}`, event);
    this.emitter.emit(`o:${event.organisationId}`, event);
  }

  resync(): void {
    this.emitter.emit('resync');
  }
}

/** PGlite: one process, so events go straight to this process's listeners after the commit. */
export function inProcessBus(): LiveEventBus {
  const hub = new Hub();
  return {
    async publish(trx, events) {
      trx.executionPromise.then(() => { for (const event of events) hub.deliver(event); }, () => {});
    },
    subscribe: (scope, listener) => hub.subscribe(scope, listener),
    onResync: (listener) => hub.onResync(listener),
    ready: () => Promise.resolve(),
    async close() {},
  };
}

export interface PostgresBusOptions {
  /** The pg connection settings of the database (knex's `client.connectionSettings`). */
  connection: string | pg.ClientConfig;
  db: Knex;
  logger: Logger;
  /** First wait before reconnecting a lost LISTEN connection; doubles up to 5 s. */
  retryMs?: number;
}

function parseEvent(row: Record<string, unknown>): StoredLiveEvent {
  return {
    id: Number(row.id), organisationId: row.organisation_id as string, conversationId: row.conversation_id as string,
    event: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as LiveEvent,
  };
}

/**
 * PostgreSQL: `pg_notify` inside the writing transaction (PostgreSQL delivers it at commit, in
 * commit order) and one dedicated `LISTEN` connection per instance. Notifications are handled one
 * after another, so events reach listeners in the order they were committed.
 */
export function postgresBus(options: PostgresBusOptions): LiveEventBus {
  const hub = new Hub();
  const { db, logger } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let queue: Promise<void> = Promise.resolve();
  let retryMs = options.retryMs ?? 100;

  const handle = async (payload: string) => {
    const message = JSON.parse(payload) as StoredLiveEvent | { ref: number };
    if ('ref' in message) {
      const row = await db('conversation_events').where({ id: message.ref }).first();
      if (row) hub.deliver(parseEvent(row));
    } else {
      hub.deliver(message);
    }
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client(typeof options.connection === 'string' ? { connectionString: options.connection } : options.connection);
    next.on('notification', (notification) => {
      if (notification.channel !== LIVE_CHANNEL || !notification.payload) return;
      const payload = notification.payload;
      queue = queue.then(() => handle(payload)).catch((err: unknown) => logger.warn({ err }, 'could not deliver a live event'));
    });
    next.on('error', (err) => {
      logger.warn({ err }, 'the live events connection failed; reconnecting');
      void next.end().catch(() => {});
    });
    next.on('end', () => {
      if (closed || client !== next) return;
      client = undefined;
      setTimeout(() => { void reconnect(); }, retryMs).unref();
    });
    client = next;
    await next.connect();
    await next.query(`LISTEN ${LIVE_CHANNEL}`);
  };

  const reconnect = async (): Promise<void> => {
    if (closed) return;
    try {
      await connect();
      retryMs = options.retryMs ?? 100;
      // Events committed while the connection was down were stored: the streams read them back.
      hub.resync();
    } catch (err) {
      logger.warn({ err }, 'could not reconnect the live events connection');
      retryMs = Math.min(retryMs * 2, 5000);
      setTimeout(() => { void reconnect(); }, retryMs).unref();
    }
  };

  // Connected on first use: an instance nobody streams from holds no extra connection.
  let connecting: Promise<void> | undefined;
  const ready = () => {
    connecting ??= connect().catch((err: unknown) => {
      connecting = undefined;
      throw err;
    });
    return connecting;
  };
  return {
    async publish(trx, events) {
      for (const event of events) {
        const inline = JSON.stringify(event);
        const payload = Buffer.byteLength(inline) <= MAX_INLINE_BYTES ? inline : JSON.stringify({ ref: event.id });
        await trx.raw('SELECT pg_notify(?, ?)', [LIVE_CHANNEL, payload]);
      }
    },
    subscribe: (scope, listener) => hub.subscribe(scope, listener),
    onResync: (listener) => hub.onResync(listener),
    ready,
    async close() {
      closed = true;
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
