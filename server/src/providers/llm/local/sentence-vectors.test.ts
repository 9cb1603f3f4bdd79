import { describe, expect, it } from 'vitest';
import { similarity, WorkerSentenceEncoder } from './sentence-encoder.js';
import { meaningTexts, packSentenceVectors, quantize, RecentVectors, rounded, unpackSentenceVectors } from './sentence-vectors.js';

/** A deterministic unit vector of `dims` dimensions. */
function unitVector(seed: number, dims = 512): Float32Array {
  const vector = new Float32Array(dims);
  let state = seed;
  for (let i = 0; i < dims; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    vector[i] = state / 2 ** 31 - 0.5;
  }
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

describe('rounded sentence vectors', () => {
  it('keeps a vector within a rounding error of itself, and a rounded vector exactly as it is', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const vector = unitVector(seed);
      const once = rounded(vector);
      expect(similarity(vector, once)).toBeGreaterThan(0.999);
      expect(rounded(once)).toEqual(once);
      const { values } = quantize(vector);
      expect(Math.max(...values.map(Math.abs))).toBeGreaterThanOrEqual(64);
      expect(Math.max(...values.map(Math.abs))).toBeLessThanOrEqual(127);
    }
  });

  it('leaves a zero vector zero', () => {
    expect(rounded(new Float32Array(4))).toEqual(new Float32Array(4));
  });
});

describe('packed sentence vectors', () => {
  const texts = ['We ship to every EU country.', 'Delivery', 'Returns are free within 30 days.'];
  const vectors = texts.map((_, i) => unitVector(i + 7));

  it('unpack to the rounded vectors of the texts asked, by text and not by position', () => {
    const packed = packSentenceVectors(texts, vectors);
    expect(packed.length).toBe(3 + texts.length * (8 + 1 + 512));
    const found = unpackSentenceVectors(packed, ['Returns are free within 30 days.', 'Not stored.', 'Delivery']);
    expect([...found.keys()]).toEqual(['Returns are free within 30 days.', 'Delivery']);
    expect(found.get('Delivery')).toEqual(rounded(vectors[1]!));
    expect(found.get('Returns are free within 30 days.')).toEqual(rounded(vectors[2]!));
  });

  it('hold nothing for a passage without sentences, or in a format this version does not read', () => {
    expect(unpackSentenceVectors(packSentenceVectors([], []), texts).size).toBe(0);
    const other = packSentenceVectors(texts, vectors);
    other.writeUInt8(2, 0);
    expect(unpackSentenceVectors(other, texts).size).toBe(0);
    expect(unpackSentenceVectors(Buffer.alloc(0), texts).size).toBe(0);
  });

  it('refuses vectors of different dimensions in one pack', () => {
    expect(() => packSentenceVectors(['a', 'b'], [unitVector(1, 4), unitVector(2, 8)])).toThrow(/dimensions/);
  });
});

describe('meaningTexts', () => {
  it('gives a passage\'s sentences and the heading each sits under, once each', () => {
    const texts = meaningTexts('# FAQ\n## Delivery\nWe ship to every EU country. It takes 5 days.\n## Returns\nReturns are free. It takes 5 days.');
    expect(texts).toEqual(expect.arrayContaining(['Delivery', 'Returns', 'We ship to every EU country.', 'Returns are free.']));
    expect(texts.filter((text) => text === 'It takes 5 days.')).toHaveLength(1);
  });
});

describe('WorkerSentenceEncoder with stored vectors', () => {
  it('takes the stored vectors of texts it has not cached and encodes only the rest, rounded as stored', async () => {
    const encoder = new WorkerSentenceEncoder();
    try {
      const stored = rounded(unitVector(3));
      const asked: string[][] = [];
      const lookup = async (missing: string[]) => { asked.push(missing); return new Map([['Trim the wick to 5 mm.', stored]]); };
      const [fromStore, encoded] = await encoder.embed(['Trim the wick to 5 mm.', 'Never leave a candle burning.'], { stored: lookup });
      expect(fromStore).toEqual(stored);
      expect(encoded).toHaveLength(512);
      expect(rounded(encoded!)).toEqual(encoded);
      expect(encoder.encoded).toBe(1);
      // Both are cached now: the store is not asked again, nothing is encoded.
      await encoder.embed(['Trim the wick to 5 mm.', 'Never leave a candle burning.'], { stored: lookup });
      expect(asked).toEqual([['Trim the wick to 5 mm.', 'Never leave a candle burning.']]);
      expect(encoder.encoded).toBe(1);
    } finally {
      await encoder.close();
    }
  }, 30_000);
});

describe('RecentVectors', () => {
  it('gives a text\'s vector rounded as stored, and lets the oldest go past its limit', () => {
    const recent = new RecentVectors(2);
    recent.set('a', unitVector(1));
    recent.set('b', unitVector(2));
    expect(recent.get('a')).toEqual(rounded(unitVector(1)));
    recent.set('c', unitVector(3));
    expect(recent.get('a')).toBeUndefined();
    expect(recent.get('c')).toEqual(rounded(unitVector(3)));
  });
});

describe('WorkerSentenceEncoder with repeated sentences', () => {
  it('encodes a sentence repeated within and across background calls once', async () => {
    const encoder = new WorkerSentenceEncoder();
    try {
      const [first, second, again] = await encoder.embed(['Opening hours are on the contact page.', 'Parking is free.', 'Opening hours are on the contact page.'], { cache: false });
      expect(encoder.encoded).toBe(2);
      expect(again).toEqual(first);
      const [later] = await encoder.embed(['Parking is free.'], { cache: false });
      expect(later).toEqual(second);
      expect(encoder.encoded).toBe(2);
    } finally {
      await encoder.close();
    }
  }, 30_000);
});
