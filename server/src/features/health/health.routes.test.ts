import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { databaseProbe } from './health.routes.js';

/** A database whose `select 1` is answered (or fails) when the test says so; `answered()` is another statement's answer. */
function fakeDatabase() {
  const pending: { resolve(): void; reject(): void }[] = [];
  const listeners: (() => void)[] = [];
  const db = {
    raw: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    on: (event: string, listener: () => void) => { if (event === 'query-response') listeners.push(listener); },
  } as unknown as Knex;
  return { db, pending, answered: () => listeners.forEach((listener) => listener()) };
}

describe('databaseProbe', () => {
  it('shares one check among waiting requests, then answers from a fresh success without querying', async () => {
    const { db, pending } = fakeDatabase();
    let now = 0;
    const probe = databaseProbe(db, () => now);
    const first = probe();
    const second = probe();
    expect(pending).toHaveLength(1);
    pending[0]!.resolve();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    now = 500;
    expect(await probe()).toBe(true);
    expect(pending).toHaveLength(1);
  });

  it('answers from a recent success at once while a new check runs, and waits once the success is stale', async () => {
    const { db, pending } = fakeDatabase();
    let now = 0;
    const probe = databaseProbe(db, () => now);
    const first = probe();
    pending[0]!.resolve();
    await first;
    now = 2_000;
    expect(await probe()).toBe(true); // the database is busy: its check is still pending
    expect(pending).toHaveLength(2);
    pending[1]!.reject();
    await new Promise((resolve) => setImmediate(resolve));
    now = 6_000;
    const stale = probe();
    expect(pending).toHaveLength(3);
    pending[2]!.reject();
    expect(await stale).toBe(false);
  });

  it('counts any statement the database answers as a success (a long transaction holds the embedded database\'s one connection)', async () => {
    const { db, pending, answered } = fakeDatabase();
    let now = 0;
    const probe = databaseProbe(db, () => now);
    answered();
    now = 6_000;
    // Its own check would wait behind the transaction; the transaction's statements keep answering.
    answered();
    expect(await probe()).toBe(true);
    expect(pending).toHaveLength(0);
    now = 12_000;
    const stale = probe();
    expect(pending).toHaveLength(1);
    pending[0]!.reject();
    expect(await stale).toBe(false);
  });
});
