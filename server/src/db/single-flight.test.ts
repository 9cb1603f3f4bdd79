import { describe, expect, it } from 'vitest';
import { SingleFlight } from './single-flight.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

describe('SingleFlight', () => {
  it('lets concurrent callers of one key share one read, and other keys read on their own', async () => {
    const flight = new SingleFlight<string>();
    let reads = 0;
    const gate = deferred<string>();
    const read = () => { reads++; return gate.promise; };
    const a = flight.run('a', read);
    const b = flight.run('a', read);
    const other = flight.run('b', async () => 'other');
    gate.resolve('value');
    expect(await Promise.all([a, b, other])).toEqual(['value', 'value', 'other']);
    expect(reads).toBe(1);
  });

  it('keeps nothing once a read settled, failed reads included', async () => {
    const flight = new SingleFlight<number>();
    let reads = 0;
    await expect(flight.run('k', async () => { reads++; throw new Error('down'); })).rejects.toThrow('down');
    expect(await flight.run('k', async () => ++reads)).toBe(2);
    expect(await flight.run('k', async () => ++reads)).toBe(3);
  });

  it('after clear(), a caller starts a fresh read instead of joining one from before a write', async () => {
    const flight = new SingleFlight<string>();
    const before = deferred<string>();
    const early = flight.run('k', () => before.promise);
    flight.clear();
    const late = flight.run('k', async () => 'after the write');
    // The older read settling must not drop the newer one from the map.
    before.resolve('before the write');
    expect(await early).toBe('before the write');
    expect(await late).toBe('after the write');
    let joined = 0;
    const gate = deferred<string>();
    const x = flight.run('k', () => { joined++; return gate.promise; });
    const y = flight.run('k', () => { joined++; return gate.promise; });
    gate.resolve('v');
    await Promise.all([x, y]);
    expect(joined).toBe(1);
  });
});
