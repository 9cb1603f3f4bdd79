// Where the open chatbot's answers are lost, per on-topic question of a vq-dump.ts recording:
// the gold not in the retrieved passages (retrieval), or in them and the first sentence holding it
// ranked 1st, 2nd–3rd or lower (ranking), or split over sentences; counted against the answer's
// verdict. VQ_VERBOSE=1 prints, for each answer not useful, the top sentence and the gold one with
// their scores. BENCH_DATA_DIR chooses the set as for the bench.
//   VQ_DUMP=/tmp/vq-dev.json node --import tsx server/bench/vq-goldrank.ts
import fs from 'node:fs/promises';
import { LocalAnswerModel } from '../src/providers/llm/local/local-answer-model.js';
import { WorkerSentenceEncoder } from '../src/providers/llm/local/sentence-encoder.js';
import { rankSentences } from '../src/providers/llm/local/rank-sentences.js';
import { termsOf, termAlternatives } from '../src/providers/llm/local/compose-answer.js';
import { synonymStems } from '../src/providers/llm/local/synonyms.js';
import { wordnetSynonymStems, mergeSynonyms } from '../src/providers/llm/local/wordnet-stems.js';
import { correctSpelling } from '../src/providers/llm/local/spelling.js';
import type { AnswerPrompt } from '../src/providers/llm/answer-model.js';
import { containsAllFacts, judge, loadVisitorSet } from './visitor-eval.js';

interface Rec { prompt: Omit<AnswerPrompt, 'storedSentenceVectors'>; stored: [string, string][] | null; answer: { text: string } }
const records = JSON.parse(await fs.readFile(process.env.VQ_DUMP ?? '/tmp/vq-dump.json', 'utf8')) as Rec[];
const byKey = new Map(records.map((r) => [`${r.prompt.restrictResponse ?? ''}|${r.prompt.question}`, r]));
const model = new LocalAnswerModel(new WorkerSentenceEncoder()) as unknown as { meanings(p: AnswerPrompt): Promise<{ whole: (t: string) => number | undefined } | undefined> };
const { questions } = await loadVisitorSet();
const stats: Record<string, number> = {};
for (const q of questions) {
  if (q.kind !== 'on-topic') continue;
  const rec = byKey.get(`|${q.question}`);
  if (!rec) continue;
  const stored = rec.stored ? new Map(rec.stored.map(([t, b]) => { const buf = Buffer.from(b, 'base64'); return [t, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength))] as const; })) : undefined;
  const p0: AnswerPrompt = { ...rec.prompt, ...(stored ? { storedSentenceVectors: async (texts: string[]) => new Map(texts.flatMap((t) => (stored.has(t) ? [[t, stored.get(t)!] as const] : []))) } : {}) };
  const question = correctSpelling(p0.question, p0.passages);
  const prompt = { ...p0, question };
  const m = await model.meanings(prompt);
  const wn = mergeSynonyms(synonymStems(question), await wordnetSynonymStems(question));
  const ranked = rankSentences(question, termsOf(prompt), prompt.passages, m?.whole, termAlternatives(question), wn);
  const inCtx = containsAllFacts(prompt.passages.map((p) => p.content).join('\n'), q);
  const rank = ranked.findIndex((s) => containsAllFacts(s.text, q));
  const anyRank = ranked.findIndex((s) => (q.gold ?? []).some((fact) => containsAllFacts(s.text, { ...q, gold: [fact] })));
  const v = judge(rec.answer.text, q);
  const bucket = !inCtx ? 'notInContext' : rank === 0 ? 'rank1' : rank > 0 && rank < 3 ? 'rank2-3' : rank >= 3 ? 'rank4+' : 'split';
  stats[`${bucket}:${v}`] = (stats[`${bucket}:${v}`] ?? 0) + 1;
  if (v !== 'useful' && process.env.VQ_VERBOSE === '1') {
    const g = ranked[rank >= 0 ? rank : Math.max(anyRank, 0)];
    process.stdout.write(`${q.id} ${bucket} rank=${rank} any=${anyRank} n=${ranked.length} ${q.question}\n   top: ${ranked[0]?.score.toFixed(2)} m=${ranked[0]?.meaning.toFixed(2)} cov=${ranked[0]?.coverage.toFixed(2)} ${ranked[0]?.text.slice(0, 110)}\n   gold: ${g?.score.toFixed(2)} m=${g?.meaning.toFixed(2)} cov=${g?.coverage.toFixed(2)} [${g?.section.at(-1)}] ${g?.text.slice(0, 110)}\n`);
  }
}
process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(stats).sort()))}\n`);
process.exit(0);
