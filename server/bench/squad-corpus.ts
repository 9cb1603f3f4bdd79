import fs from 'node:fs/promises';
import { SQUAD_V1 } from './squad-eval.js';

interface SquadFile { data: { paragraphs: { context: string; qas: { question: string }[] }[] }[] }

let cached: { paragraphs: string[]; questions: string[] } | undefined;

/** SQuAD 1.1 dev's paragraphs (2,067) and questions, as realistic chunk text and questions for load tests. */
export async function loadSquadText(): Promise<{ paragraphs: string[]; questions: string[] }> {
  if (cached) return cached;
  const squad = JSON.parse(await fs.readFile(SQUAD_V1, 'utf8')) as SquadFile;
  const paragraphs = squad.data.flatMap((article) => article.paragraphs.map((p) => p.context));
  // Interleaved across articles, so the first few questions do not all concern one topic.
  const perParagraph = squad.data.flatMap((article) => article.paragraphs.map((p) => p.qas.map((qa) => qa.question)));
  const questions: string[] = [];
  for (let round = 0; questions.length < 2_000; round++) {
    let added = 0;
    for (let i = 0; i < perParagraph.length && questions.length < 2_000; i += 37) {
      const question = perParagraph[i]?.[round];
      if (question) { questions.push(question); added++; }
    }
    if (added === 0) break;
  }
  cached = { paragraphs, questions };
  return cached;
}
