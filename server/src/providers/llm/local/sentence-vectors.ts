import { createHash } from 'node:crypto';
import { segmentText, type TextSegment } from '@parley/shared';
import { RecentMap } from './recent-map.js';

/**
 * The texts of a passage whose meaning the local engine weighs: its sentences, and the heading
 * each sits under ("Damaged parcels" says what "it arrived broken" is about). One definition for
 * the answer (local-answer-model.ts) and for the vectors stored at ingestion, so they meet.
 */
export function meaningTexts(content: string): string[] {
  return meaningTextsOf(segmentText(content));
}

/** {@link meaningTexts} of a passage already cut into segments. */
export function meaningTextsOf(segments: readonly TextSegment[]): string[] {
  return [...new Set(segments.flatMap((segment) => [segment.text, ...segment.section.slice(-1)]))];
}

/** Bytes of an entry's key: the start of the SHA-1 of its text. */
const KEY_BYTES = 8;
/** The format's first byte; another value is not read (its texts are encoded again). */
const FORMAT = 1;

/**
 * A vector rounded to 8 bits a dimension with a power-of-two scale, as it is stored: each value
 * is a small integer times 2^e, exact in a float, so rounding a rounded vector changes nothing.
 * The encoder rounds every vector it gives, so an answer weighs the same numbers whether the
 * vectors came from the worker, this instance's cache or the database.
 */
export function quantize(vector: Float32Array): { exponent: number; values: Int8Array } {
  let max = 0;
  for (const value of vector) max = Math.max(max, Math.abs(value));
  // The smallest scale 2^e with max / 2^e ≤ 127.
  let exponent = max > 0 ? Math.ceil(Math.log2(max / 127)) : 0;
  // log2 may round either way: settle on the exact power.
  while (max > 0 && max / 2 ** exponent > 127) exponent += 1;
  while (max > 0 && max / 2 ** (exponent - 1) <= 127) exponent -= 1;
  const scale = 2 ** exponent;
  const values = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) values[i] = Math.max(-127, Math.min(127, Math.round(vector[i]! / scale)));
  return { exponent, values };
}

function dequantize(exponent: number, values: Int8Array): Float32Array {
  const scale = 2 ** exponent;
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vector[i] = values[i]! * scale;
  return vector;
}

/** The vector as the encoder gives it and the database keeps it (see {@link quantize}). */
export function rounded(vector: Float32Array): Float32Array {
  const { exponent, values } = quantize(vector);
  return dequantize(exponent, values);
}

const keyOf = (text: string) => createHash('sha1').update(text).digest().subarray(0, KEY_BYTES);

/**
 * Packs texts' vectors for storage: a format byte, the dimension (2 bytes), then per text the
 * start of its SHA-1, the scale's exponent (1 byte) and the 8-bit values. About 0.5 kB a sentence
 * at 512 dimensions. Keyed by text, not by position, so a passage cut into sentences differently
 * by a later version finds what still matches and encodes only the rest.
 */
export function packSentenceVectors(texts: readonly string[], vectors: readonly Float32Array[]): Buffer {
  const dims = vectors[0]?.length ?? 0;
  const entry = KEY_BYTES + 1 + dims;
  const buffer = Buffer.alloc(3 + texts.length * entry);
  buffer.writeUInt8(FORMAT, 0);
  buffer.writeUInt16LE(dims, 1);
  texts.forEach((text, i) => {
    const vector = vectors[i]!;
    if (vector.length !== dims) throw new Error(`vector ${i} has ${vector.length} dimensions, not ${dims}`);
    const { exponent, values } = quantize(vector);
    const offset = 3 + i * entry;
    keyOf(text).copy(buffer, offset);
    buffer.writeInt8(exponent, offset + KEY_BYTES);
    buffer.set(new Uint8Array(values.buffer, values.byteOffset, dims), offset + KEY_BYTES + 1);
  });
  return buffer;
}

/** The vectors a pack holds for the given texts (texts it does not hold are left out). */
export function unpackSentenceVectors(packed: Buffer, texts: readonly string[]): Map<string, Float32Array> {
  const found = new Map<string, Float32Array>();
  if (packed.length < 3 || packed.readUInt8(0) !== FORMAT) return found;
  const dims = packed.readUInt16LE(1);
  const entry = KEY_BYTES + 1 + dims;
  const offsets = new Map<string, number>();
  for (let offset = 3; offset + entry <= packed.length; offset += entry) {
    offsets.set(packed.toString('hex', offset, offset + KEY_BYTES), offset);
  }
  for (const text of texts) {
    const offset = offsets.get(keyOf(text).toString('hex'));
    if (offset === undefined) continue;
    const values = new Int8Array(packed.buffer, packed.byteOffset + offset + KEY_BYTES + 1, dims);
    found.set(text, dequantize(packed.readInt8(offset + KEY_BYTES), values));
  }
  return found;
}

/**
 * Vectors of texts recently encoded, keyed by the start of the text's SHA-1 and kept rounded to
 * 8 bits (about 0.6 kB each, exactly what {@link rounded} gives): a sentence repeated across pages
 * (a site's footer, a manual's recurring notes) or resources (one text uploaded twice) is encoded
 * once per instance. Oldest out first.
 */
export class RecentVectors {
  private readonly entries: RecentMap<string, { exponent: number; values: Int8Array }>;

  constructor(limit: number) {
    this.entries = new RecentMap(limit);
  }

  get(text: string): Float32Array | undefined {
    const entry = this.entries.get(keyOf(text).toString('base64'));
    return entry && dequantize(entry.exponent, entry.values);
  }

  set(text: string, vector: Float32Array): void {
    this.entries.set(keyOf(text).toString('base64'), quantize(vector));
  }
}
