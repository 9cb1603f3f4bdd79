import { describe, expect, it } from 'vitest';
import { CoalescedReads } from './coalesced-reads.js';

/** A read of numbers that records each batch and answers when told to. */
function doubling() {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const reads = new CoalescedReads<number, number>((inputs) => {
    batches.push(inputs);
    return new Promise((resolve, reject) => pending.push(() => (inputs.includes(-1) ? reject(new Error('refused')) : resolve(inputs.map((n) => n * 2)))));
  });
  const answerNext = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    pending.shift()?.();
  };
  return { reads, batches, answerNext };
}

describe('coalesced reads', () => {
  it('starts the first read at once and lets the reads arriving meanwhile share the next, each with its own answer', async () => {
    const { reads, batches, answerNext } = doubling();
    const first = reads.read('a', 1);
    const rest = [reads.read('a', 2), reads.read('a', 3), reads.read('a', 4)];
    expect(batches).toEqual([[1]]);
    await answerNext();
    expect(await first).toBe(2);
    await answerNext();
    expect(await Promise.all(rest)).toEqual([4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps keys apart, and fails only the input whose read failed', async () => {
    const { reads, batches, answerNext } = doubling();
    const a = reads.read('a', 1);
    const b = reads.read('b', 5);
    expect(batches).toEqual([[1], [5]]);
    const failing = expect(reads.read('a', -1)).rejects.toThrow('refused');
    const sharing = reads.read('a', 3);
    await answerNext();
    await answerNext();
    expect([await a, await b]).toEqual([2, 10]);
    // The batch [-1, 3] fails; each is then read alone.
    await answerNext();
    await answerNext();
    await answerNext();
    await failing;
    expect(await sharing).toBe(6);
    expect(batches.slice(2)).toEqual([[-1, 3], [-1], [3]]);
    // A key starts afresh once nothing is in flight for it.
    const again = reads.read('a', 7);
    await answerNext();
    expect(await again).toBe(14);
  });
});
