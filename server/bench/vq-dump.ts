// Runs the visitor-questions bench (local engine only) and records every prompt the local engine
// answered, with the stored vectors of its passages' sentences, to VQ_DUMP (JSON, ~40 MB a set).
// vq-replay.ts answers them again in seconds, without ingestion: for trying changes to how the
// engine ranks and picks sentences (not retrieval). BENCH_DATA_DIR chooses the set as for the bench.
//   VQ_DUMP=/tmp/vq-dev.json node --import tsx server/bench/vq-dump.ts
import fs from 'node:fs/promises';
import { LocalAnswerModel } from '../src/providers/llm/local/local-answer-model.js';
import { analysePassage } from '../src/providers/llm/local/rank-sentences.js';
import { meaningTextsOf } from '../src/providers/llm/local/sentence-vectors.js';
import type { AnswerPrompt } from '../src/providers/llm/answer-model.js';
import { benchmark } from './visitor-questions.bench.js';

process.env.BENCH_VQ_LOCAL_ONLY = '1';
const out = process.env.VQ_DUMP ?? '/tmp/vq-dump.json';
const records: unknown[] = [];
const original = LocalAnswerModel.prototype.answer;
LocalAnswerModel.prototype.answer = async function (this: LocalAnswerModel, prompt: AnswerPrompt) {
  const texts = [...new Set(prompt.passages.flatMap((p) => meaningTextsOf(analysePassage(p.content).sentences)))];
  const stored = prompt.storedSentenceVectors ? await prompt.storedSentenceVectors(texts) : undefined;
  const answer = await original.call(this, prompt);
  const { storedSentenceVectors: _s, ...rest } = prompt;
  records.push({
    prompt: rest,
    stored: stored ? [...stored].map(([text, v]) => [text, Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')]) : null,
    answer,
  });
  return answer;
};
await benchmark.run({
  database: 'pglite', full: false,
  report: (label, figures) => process.stdout.write(`  ${label.padEnd(44)} ${Object.entries(figures).map(([k, v]) => `${k}=${v}`).join('  ')}\n`),
});
await fs.writeFile(out, JSON.stringify(records));
process.stdout.write(`dumped ${records.length} prompts to ${out}\n`);
process.exit(0);
