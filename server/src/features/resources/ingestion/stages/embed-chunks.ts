import { z } from 'zod';

/** Turns texts into vectors (chunks at ingestion, questions at retrieval). */
export interface Embedder {
  /** Stored beside each vector: vectors of different models are never compared. */
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

const EmbeddingsResponseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int() })),
});

const BATCH_SIZE = 64;
const REQUEST_TIMEOUT_MS = 60_000;

/** A client of an OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, Ollama, vLLM, LiteLLM). */
export function openAiEmbedder(options: { baseUrl: string; apiKey?: string; model: string }): Embedder {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    model: options.model,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += BATCH_SIZE) {
        const batch = texts.slice(start, start + BATCH_SIZE);
        const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({ model: options.model, input: batch }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (!response.ok) throw new Error(`embeddings provider answered ${response.status}`);
        const parsed = EmbeddingsResponseSchema.parse(await response.json());
        if (parsed.data.length !== batch.length) throw new Error(`embeddings provider returned ${parsed.data.length} vectors for ${batch.length} texts`);
        for (const item of [...parsed.data].sort((a, b) => a.index - b.index)) vectors.push(item.embedding);
      }
      return vectors;
    },
  };
}

/** pgvector's text form of a vector. */
export const toVectorLiteral = (vector: readonly number[]) => `[${vector.join(',')}]`;
