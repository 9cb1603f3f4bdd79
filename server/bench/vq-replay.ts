// Answers the prompts recorded by vq-dump.ts again with the current local engine and scores them
// as the visitor-questions bench does (the same figures when the engine is unchanged; `changed`
// counts answers that differ from the recorded ones). VQ_VERBOSE=1 prints each answer.
//   VQ_DUMP=/tmp/vq-dev.json node --import tsx server/bench/vq-replay.ts
import fs from 'node:fs/promises';
import { LocalAnswerModel } from '../src/providers/llm/local/local-answer-model.js';
import { WorkerSentenceEncoder } from '../src/providers/llm/local/sentence-encoder.js';
import type { AnswerPrompt } from '../src/providers/llm/answer-model.js';
import { judge, loadVisitorSet } from './visitor-eval.js';

interface Rec { prompt: Omit<AnswerPrompt, 'storedSentenceVectors'>; stored: [string, string][] | null; answer: { text: string } }
const records = JSON.parse(await fs.readFile(process.env.VQ_DUMP ?? '/tmp/vq-dump.json', 'utf8')) as Rec[];
const keyOf = (restrict: string | undefined, question: string) => `${restrict ?? ''}|${question}`;
const byKey = new Map(records.map((r) => [keyOf(r.prompt.restrictResponse, r.prompt.question), r]));
const encoder = new WorkerSentenceEncoder();
const model = new LocalAnswerModel(encoder);
const { kbs, questions } = await loadVisitorSet();
const counts: Record<string, number> = {};
const inc = (k: string) => { counts[k] = (counts[k] ?? 0) + 1; };
let missing = 0, changed = 0;
const verbose = process.env.VQ_VERBOSE === '1';
const only = process.env.VQ_ONLY;
async function ask(restrict: string | undefined, question: string): Promise<string | undefined> {
  const rec = byKey.get(keyOf(restrict, question));
  if (!rec) { missing++; return undefined; }
  const stored = rec.stored ? new Map(rec.stored.map(([t, b]) => {
    const buf = Buffer.from(b, 'base64');
    return [t, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength))] as const;
  })) : undefined;
  const prompt: AnswerPrompt = { ...rec.prompt, ...(stored ? { storedSentenceVectors: async (texts: string[]) => new Map(texts.flatMap((t) => (stored.has(t) ? [[t, stored.get(t)!] as const] : []))) } : {}) };
  const answer = await model.answer(prompt);
  if (answer.text !== rec.answer.text) changed++;
  return answer.text;
}
for (const q of questions) {
  if (only && !only.split(',').includes(q.kb)) continue;
  const kb = kbs.find((k) => k.id === q.kb)!;
  const text = await ask(kb.refusalText, q.question) ?? kb.refusalText;
  inc(q.kind);
  let verdict: string;
  let line = '';
  if (q.kind === 'on-topic' || q.kind === 'other-language') {
    verdict = judge(text, q, kb.refusalText);
    inc(`${q.kind}:${verdict}`);
    if (q.kind === 'on-topic') {
      const open = await ask(undefined, q.question) ?? '';
      const ov = judge(open, q);
      inc(`open:${ov}`);
      line = `      open [${ov}] → ${open.slice(0, 250)}\n`;
    }
  } else if (q.kind === 'off-topic') {
    verdict = text.trim() === kb.refusalText ? 'refusedExactly' : 'answered';
    inc(`off:${verdict}`);
  } else {
    verdict = text.includes(kb.refusalText) ? 'refused' : 'replied';
    inc(`st:${verdict}`);
  }
  if (verbose) process.stdout.write(`${q.id} [${verdict}] ${q.question}\n      → ${text.slice(0, 250)}\n${line}`);
}
const share = (a: string, b: string) => ((counts[a] ?? 0) / (counts[b] || 1)).toFixed(2);
process.stdout.write(`useful=${share('on-topic:useful', 'on-topic')} partial=${share('on-topic:partial', 'on-topic')} refused_on=${share('on-topic:refused', 'on-topic')} open_useful=${share('open:useful', 'on-topic')} offtopic_ok=${share('off:refusedExactly', 'off-topic')} smalltalk_refused=${share('st:refused', 'small-talk')} other_lang=${share('other-language:useful', 'other-language')}  (missing ${missing}, changed ${changed}, on-topic ${counts['on-topic'] ?? 0})\n`);
process.exit(0);
