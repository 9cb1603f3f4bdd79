import { describe, expect, it } from 'vitest';
import { BestCandidates } from './rank-bm25.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('BestCandidates', () => {
  it('keeps what sorting every candidate and taking the first ones would, ties by id', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const next = random(seed);
      const size = 1 + Math.floor(next() * 40);
      // Few distinct scores, so ties are common; ids unique, offered in any order.
      const offered = Array.from({ length: Math.floor(next() * 300) }, (_, i) => ({ id: i * 7 + 3, score: Math.floor(next() * 12) / 4, resource: i % 3, chunk: i }))
        .sort(() => next() - 0.5);
      const best = new BestCandidates(size);
      for (const c of offered) best.offer(c.id, c.score, c.resource, c.chunk);
      const expected = [...offered].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, size);
      expect(best.sorted(), `seed ${seed}`).toEqual(expected);
    }
  });

  it('keeps nothing when asked for none', () => {
    const best = new BestCandidates(0);
    best.offer(1, 5, 0, 0);
    expect(best.sorted()).toEqual([]);
  });
});
