import fs from 'node:fs/promises';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { benchDatabase } from './bench-database.js';
import type { Benchmark, BenchContext } from './bench-kit.js';
import { answerBody, ask, loadSquad, normalise, PYTHON_FAQ, retrievalHit, sample, SQUAD_V1, SQUAD_V2 } from './squad-eval.js';

const RESTRICT = 'Sorry, I can only answer questions about our documents, and they do not cover that.';

const pct = (part: number, whole: number) => `${whole === 0 ? 'n/a' : ((100 * part) / whole).toFixed(1)}%`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function answerable(ctx: BenchContext, services: ReturnType<typeof createServices>): Promise<void> {
  const { chatbot, questions } = await loadSquad(services, SQUAD_V1);
  const picked = sample(questions, ctx.full ? questions.length : 500);
  let contains = 0, notFound = 0, hits = 0;
  const chars: number[] = [], words: number[] = [];
  for (const q of picked) {
    const body = answerBody(await ask(services, chatbot, q.question));
    if (q.answers.some((gold) => normalise(body).includes(normalise(gold)))) contains++;
    if (/couldn't find anything/.test(body)) notFound++;
    if (await retrievalHit(services, chatbot, q, services.config.chatContextChunks)) hits++;
    chars.push(body.length);
    words.push(body.split(/\s+/).filter(Boolean).length);
  }
  ctx.report(`SQuAD 1.1 dev, ${picked.length} of ${questions.length} questions`, {
    containsGold: pct(contains, picked.length),
    goldParagraphRetrieved: pct(hits, picked.length),
    notFound: pct(notFound, picked.length),
    meanChars: Math.round(chars.reduce((a, b) => a + b, 0) / picked.length),
    medianWords: median(words),
  });
}

async function unanswerable(ctx: BenchContext, services: ReturnType<typeof createServices>): Promise<void> {
  const { chatbot, questions } = await loadSquad(services, SQUAD_V2, RESTRICT);
  const picked = sample(questions, ctx.full ? questions.length : 600);
  let impossible = 0, restrictedRightly = 0, possible = 0, refusedWrongly = 0, contains = 0;
  for (const q of picked) {
    const answer = await ask(services, chatbot, q.question);
    if (q.impossible) {
      impossible++;
      if (answer === RESTRICT) restrictedRightly++;
    } else {
      possible++;
      if (answer === RESTRICT) refusedWrongly++;
      else if (q.answers.some((gold) => normalise(answerBody(answer)).includes(normalise(gold)))) contains++;
    }
  }
  ctx.report(`SQuAD 2.0 (CS224N dev), ${picked.length} of ${questions.length}, restricted`, {
    unanswerableGivenRestrictText: pct(restrictedRightly, impossible),
    answerableWronglyRefused: pct(refusedWrongly, possible),
    answerableContainsGold: pct(contains, possible),
  });
  // Off-topic: Python FAQ questions to the same (Wikipedia) chatbot hold nothing relevant at all.
  const faq = (await fs.readFile(PYTHON_FAQ, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { question: string });
  let offTopicRestricted = 0;
  for (const { question } of faq) if (await ask(services, chatbot, question) === RESTRICT) offTopicRestricted++;
  ctx.report(`Python FAQ (${faq.length}) to the SQuAD 2.0 chatbot, restricted`, { offTopicGivenRestrictText: pct(offTopicRestricted, faq.length) });
}

/**
 * Answer quality of the local engine through the whole chat pipeline (retrieval over a chatbot
 * whose resources are the dataset's articles, restrict gate, answer composition). Quick: 500 + 600
 * sampled questions; BENCH_FULL=1: every question.
 */
export const benchmark: Benchmark = {
  name: 'Local answer engine: quality on SQuAD',
  databases: ['pglite'],
  async run(ctx) {
    const database = await benchDatabase(ctx.database);
    try {
      const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent' });
      const services = createServices(config, database, pino({ level: 'silent' }));
      await answerable(ctx, services);
      await unanswerable(ctx, services);
    } finally {
      await database.close();
    }
  },
};
