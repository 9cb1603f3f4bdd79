// Evidence for the restrict decision, per question a restricted chatbot was asked in a vq-dump.ts
// recording (on-topic and off-topic): the score the engine decides on today, the best sentence's
// meaning, its nearest heading's, the word relevance with and without WordNet's synonyms, the share
// of the question's words found anywhere in the context, whether words and meaning pick the same
// block, the meaning of a section read whole (the centroid of its stored sentence vectors), and the
// verdicts of the restricted and the open answer. Written to VQ_FEATURES as JSON, to try decision
// rules offline; BENCH_DATA_DIR chooses the set as for the bench.
//   VQ_DUMP=/tmp/vq-dev.json VQ_FEATURES=/tmp/features.json node --import tsx server/bench/vq-features.ts
import fs from 'node:fs/promises';
import { LocalAnswerModel } from '../src/providers/llm/local/local-answer-model.js';
import { WorkerSentenceEncoder } from '../src/providers/llm/local/sentence-encoder.js';
import { rankSentences, relevanceOf, meaningRelevanceOf, termMatcher } from '../src/providers/llm/local/rank-sentences.js';
import { termsOf, termAlternatives } from '../src/providers/llm/local/compose-answer.js';
import { synonymStems } from '../src/providers/llm/local/synonyms.js';
import { wordnetSynonymStems, mergeSynonyms } from '../src/providers/llm/local/wordnet-stems.js';
import { analysePassage } from '../src/providers/llm/local/rank-sentences.js';
import { similarity } from '../src/providers/llm/local/sentence-encoder.js';
import { correctSpelling } from '../src/providers/llm/local/spelling.js';
import type { AnswerPrompt } from '../src/providers/llm/answer-model.js';
import { judge, loadVisitorSet } from './visitor-eval.js';

interface Rec { prompt: Omit<AnswerPrompt, 'storedSentenceVectors'>; stored: [string, string][] | null; answer: { text: string } }
const records = JSON.parse(await fs.readFile(process.env.VQ_DUMP ?? '/tmp/vq-dump.json', 'utf8')) as Rec[];
const keyOf = (restrict: string | undefined, question: string) => `${restrict ?? ''}|${question}`;
const byKey = new Map(records.map((r) => [keyOf(r.prompt.restrictResponse, r.prompt.question), r]));
const encoder = new WorkerSentenceEncoder();
const model = new LocalAnswerModel(encoder) as unknown as { meanings(p: AnswerPrompt): Promise<{ whole: (t: string) => number | undefined } | undefined> };
const { kbs, questions } = await loadVisitorSet();
const rows: unknown[] = [];
for (const q of questions) {
  if (q.kind !== 'on-topic' && q.kind !== 'off-topic') continue;
  const kb = kbs.find((k) => k.id === q.kb)!;
  const rec = byKey.get(keyOf(kb.refusalText, q.question));
  if (!rec) continue;
  const stored = rec.stored ? new Map(rec.stored.map(([t, b]) => { const buf = Buffer.from(b, 'base64'); return [t, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength))] as const; })) : undefined;
  const p0: AnswerPrompt = { ...rec.prompt, ...(stored ? { storedSentenceVectors: async (texts: string[]) => new Map(texts.flatMap((t) => (stored.has(t) ? [[t, stored.get(t)!] as const] : []))) } : {}) };
  if (p0.turn) continue;
  const question = correctSpelling(p0.question, p0.passages);
  const prompt = { ...p0, question };
  const m = await model.meanings(prompt);
  const terms = termsOf(prompt);
  const alts = termAlternatives(question);
  const own = synonymStems(question);
  const wn = mergeSynonyms(own, await wordnetSynonymStems(question));
  const judged = rankSentences(question, terms, prompt.passages, m?.whole, alts, own);
  const withWn = rankSentences(question, terms, prompt.passages, m?.whole, alts, wn);
  const wordsOnly = rankSentences(question, terms, prompt.passages, undefined, alts, own);
  const meaningMax = judged.reduce((b, s) => Math.max(b, s.meaning), 0);
  const headMax = Math.max(0, ...judged.map((s) => { const h = s.section.at(-1); return h ? m?.whole(h) ?? 0 : 0; }));
  // Whether the best sentence by words and the best by meaning sit in the same block.
  const byMeaning = [...judged].sort((a, b) => b.meaning - a.meaning)[0];
  const agree = wordsOnly[0] && byMeaning ? (wordsOnly[0].passage === byMeaning.passage && wordsOnly[0].block === byMeaning.block ? 1 : 0) : 0;
  // The weighted share of the question's words the whole context holds, with WordNet's synonyms and without.
  const match = termMatcher(alts, wn);
  const all = new Set(judged.flatMap((s) => [...s.stems]));
  const tw = [...terms].reduce((s, [, w]) => s + w, 0) || 1;
  const covAllWn = [...terms].reduce((s, [t, w]) => s + w * match(t, all), 0) / tw;
  const covAllOwn = [...terms].reduce((s, [t, w]) => s + w * termMatcher(alts, own)(t, all), 0) / tw;
  // A section's meaning read whole: the centroid of its heading's and sentences' vectors, per section and per block.
  let sectionMax = 0, blockMax = 0;
  if (stored) {
    const [qv] = await encoder.embed([question]);
    const groups = new Map<string, Float32Array[]>();
    const blocks = new Map<string, Float32Array[]>();
    prompt.passages.forEach((pa, i) => {
      for (const seg of analysePassage(pa.content).sentences) {
        const v = stored.get(seg.text); if (!v) continue;
        const k = `${seg.section.join('/')}`;
        const h = seg.section.at(-1);
        if (!groups.has(k)) groups.set(k, h && stored.get(h) ? [stored.get(h)!] : []);
        groups.get(k)!.push(v);
        const bk = `${i}/${seg.block}`;
        if (!blocks.has(bk)) blocks.set(bk, h && stored.get(h) ? [stored.get(h)!] : []);
        blocks.get(bk)!.push(v);
      }
    });
    const cos = (vs: Float32Array[]) => { const c = new Float32Array(vs[0]!.length); for (const v of vs) for (let j = 0; j < c.length; j++) c[j] = c[j]! + v[j]!; let n = 0; for (const x of c) n += x * x; n = Math.sqrt(n) || 1; return similarity(qv!, c) / n; };
    for (const vs of groups.values()) if (vs.length) sectionMax = Math.max(sectionMax, cos(vs));
    for (const vs of blocks.values()) if (vs.length) blockMax = Math.max(blockMax, cos(vs));
  }
  const text = rec.answer.text;
  const verdict = q.kind === 'on-topic' ? judge(text, q, kb.refusalText) : (text.trim() === kb.refusalText ? 'refusedExactly' : 'answered');
  const openRec = byKey.get(keyOf(undefined, q.question));
  const openVerdict = q.kind === 'on-topic' && openRec ? judge(openRec.answer.text, q) : '';
  rows.push({ id: q.id, kind: q.kind, question: q.question, verdict, openVerdict, cur: meaningRelevanceOf(judged, 0.3), meaningMax, headMax, words: relevanceOf(judged), wordsWn: relevanceOf(withWn), curWn: meaningRelevanceOf(withWn, 0.3), agree, covAllWn, covAllOwn, missingKeys: judged[0]?.missingKeys ?? 0, sectionMax, blockMax, nterms: terms.size });
}
await fs.writeFile(process.env.VQ_FEATURES ?? '/tmp/vq-features.json', JSON.stringify(rows, null, 1));
process.stdout.write(`${rows.length} rows\n`);
process.exit(0);
