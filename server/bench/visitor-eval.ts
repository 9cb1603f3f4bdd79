import fs from 'node:fs/promises';
import path from 'node:path';
import { DATA_DIR } from './squad-eval.js';

/** The visitor-questions development set (../shared/data/visitor-questions). */
export const VISITOR_DIR = path.join(DATA_DIR, 'visitor-questions');

export interface KnowledgeBase {
  id: string;
  title: string;
  refusalText: string;
  text: { name: string; file: string }[];
  pdf: { file: string }[];
  website: { dir: string; pages: string[] };
}

export type QuestionKind = 'on-topic' | 'off-topic' | 'small-talk' | 'other-language';

export interface VisitorQuestion {
  id: string;
  kb: string;
  kind: QuestionKind;
  question: string;
  history?: { text: string; fromUser: boolean }[];
  gold?: string[][];
  tags?: string[];
  lang?: string;
}

export async function loadVisitorSet(): Promise<{ kbs: KnowledgeBase[]; questions: VisitorQuestion[] }> {
  const kbs = JSON.parse(await fs.readFile(path.join(VISITOR_DIR, 'kb', 'kbs.json'), 'utf8')) as { kbs: KnowledgeBase[] };
  // BENCH_VQ_QUESTIONS: another file of questions in dev.json's format, about the same knowledge bases.
  const file = process.env.BENCH_VQ_QUESTIONS ?? path.join(VISITOR_DIR, 'dev.json');
  const dev = JSON.parse(await fs.readFile(file, 'utf8')) as { questions: VisitorQuestion[] };
  return { kbs: kbs.kbs, questions: dev.questions };
}

/** The set's normalisation: NFKC, lower case, straight quotes, one kind of dash, single spaces. */
export function normaliseAnswer(text: string): string {
  return text.normalize('NFKC').toLowerCase()
    .replace(/[‘’‚‛′]/g, "'").replace(/[“”„‟″]/g, '"')
    .replace(/[‐‑‒–—―−]/g, '-').replace(/\s+/g, ' ').trim();
}

function matches(answer: string, gold: string): boolean {
  const normalised = normaliseAnswer(answer);
  if (gold.length > 2 && gold.startsWith('/') && gold.endsWith('/')) return new RegExp(gold.slice(1, -1), 'iu').test(normalised);
  return normalised.includes(normaliseAnswer(gold));
}

const NOT_FOUND = /couldn'?t find|could not find|no information|not find (any|information)|don'?t have (any )?information|came back empty|not (sure|able to find)|nothing about/i;

export type Verdict = 'useful' | 'partial' | 'refused' | 'notFound' | 'wrong';

/** Scores one answer to an on-topic or other-language question as the benchmark does. */
export function judge(answer: string, question: VisitorQuestion, refusalText?: string): Verdict {
  const facts = question.gold ?? [];
  const found = facts.filter((fact) => fact.some((gold) => matches(answer, gold))).length;
  if (facts.length > 0 && found === facts.length) return 'useful';
  if (refusalText && answer.includes(refusalText)) return 'refused';
  if (found > 0) return 'partial';
  if (NOT_FOUND.test(answer)) return 'notFound';
  return 'wrong';
}

/** Whether every gold fact occurs in a text (context recall of a model request). */
export function containsAllFacts(text: string, question: VisitorQuestion): boolean {
  return (question.gold ?? []).every((fact) => fact.some((gold) => matches(text, gold)));
}
