import fs from 'node:fs/promises';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { benchDatabase } from './bench-database.js';
import type { Benchmark, BenchContext } from './bench-kit.js';
import { splitSentences } from '@parley/shared';
import type { ChatbotRecord } from '../src/features/chatbots/chatbots.repository.js';
import { retrieveChunks } from '../src/features/resources/retrieve-chunks.js';
import { contentStems } from '../src/providers/llm/local/text-terms.js';
import { answerBody, ask, loadSquad, normalise, PYTHON_FAQ, retrievalHit, sample, SQUAD_V1, SQUAD_V2, type SquadQuestion } from './squad-eval.js';

const RESTRICT = 'Sorry, I can only answer questions about our documents, and they do not cover that.';

const pct = (part: number, whole: number) => `${whole === 0 ? 'n/a' : ((100 * part) / whole).toFixed(1)}%`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The baseline of the same run: the three sentences of the retrieved passages that BM25 ranks
 * highest against the question (k1 1.2, b 0.75, document frequencies over those sentences).
 */
async function bm25TopSentences(services: ReturnType<typeof createServices>, chatbot: ChatbotRecord, question: string): Promise<string> {
  const chunks = await retrieveChunks(services.database.db, chatbot.organisationId, chatbot.resourceIds, question, services.config.chatContextChunks);
  const sentences = [...new Set(chunks.flatMap((chunk) => splitSentences(chunk.content)))];
  const docs = sentences.map((sentence) => contentStems(sentence));
  const avgdl = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const terms = [...new Set(contentStems(question))];
  const idf = new Map(terms.map((term) => {
    const df = docs.filter((doc) => doc.includes(term)).length;
    return [term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5))];
  }));
  const score = (doc: string[]) => terms.reduce((sum, term) => {
    const tf = doc.filter((stem) => stem === term).length;
    return sum + (idf.get(term) ?? 0) * (tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * doc.length / avgdl));
  }, 0);
  return sentences.map((text, i) => ({ text, score: score(docs[i]!) })).sort((a, b) => b.score - a.score).slice(0, 3).map((s) => s.text).join(' ');
}

/** Asks the picked SQuAD v1.1 questions; how many answers hold a gold answer, beside BM25's top three sentences of the same passages. */
async function answerPicked(ctx: BenchContext, services: ReturnType<typeof createServices>, chatbot: ChatbotRecord, picked: readonly SquadQuestion[], label: string): Promise<void> {
  let contains = 0, notFound = 0, hits = 0, baselineContains = 0;
  const chars: number[] = [], words: number[] = [], baselineWords: number[] = [];
  for (const q of picked) {
    const body = answerBody(await ask(services, chatbot, q.question));
    const baseline = await bm25TopSentences(services, chatbot, q.question);
    if (q.answers.some((gold) => normalise(baseline).includes(normalise(gold)))) baselineContains++;
    baselineWords.push(baseline.split(/\s+/).filter(Boolean).length);
    if (q.answers.some((gold) => normalise(body).includes(normalise(gold)))) contains++;
    if (/couldn't find anything/.test(body)) notFound++;
    if (await retrievalHit(services, chatbot, q, services.config.chatContextChunks)) hits++;
    chars.push(body.length);
    words.push(body.split(/\s+/).filter(Boolean).length);
  }
  ctx.report(label, {
    containsGold: pct(contains, picked.length),
    goldParagraphRetrieved: pct(hits, picked.length),
    notFound: pct(notFound, picked.length),
    meanChars: Math.round(chars.reduce((a, b) => a + b, 0) / picked.length),
    medianWords: median(words),
  });
  ctx.report('  baseline: BM25 top-3 sentences of the same passages', {
    containsGold: pct(baselineContains, picked.length), medianWords: median(baselineWords),
  });
}

async function answerable(ctx: BenchContext, services: ReturnType<typeof createServices>, meaningIndex: boolean): Promise<void> {
  const { chatbot, questions } = await loadSquad(services, SQUAD_V1, undefined, meaningIndex);
  const picked = sample(questions, ctx.full ? questions.length : 500);
  await answerPicked(ctx, services, chatbot, picked, `SQuAD 1.1 dev, ${picked.length} of ${questions.length} questions, ${meaningIndex
    ? 'meaning index complete' : 'right after ingestion (meaning index not filled: words alone)'}`);
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
    // Right after ingestion, on a database of its own: the chatbot ranks by words alone.
    for (const meaningIndex of [false, true]) {
      const database = await benchDatabase(ctx.database);
      try {
        const config = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent' });
        const services = createServices(config, database, pino({ level: 'silent' }));
        await answerable(ctx, services, meaningIndex);
        if (meaningIndex) await unanswerable(ctx, services);
      } finally {
        await database.close();
      }
    }
  },
};
