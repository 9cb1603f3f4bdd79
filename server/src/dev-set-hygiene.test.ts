import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No question of the visitor-questions development set in the code or its unit tests. The set
 * measures how the engine answers questions it has not seen; a question copied into an example,
 * a prototype or a test fits the engine to the set and flatters the measure. This test reads the
 * questions from the data file at run time (it holds none itself) and looks for each one,
 * normalised, in every TypeScript and JSON file of server/src and shared/src (the language layer's
 * word lists are JSON data files):
 * - the whole question, when it has at least {@link MIN_WHOLE_WORDS} words (shorter ones are
 *   stock phrases any chat vocabulary holds: "hello", "thanks!", "who are you?");
 * - any run of {@link RUN_WORDS} consecutive words of it.
 * The visitor's own earlier turns of a question (its history) count as questions too.
 *
 * The data sits beside the repository (../shared/data, as for the benchmarks) or under
 * BENCH_DATA_DIR; a clone without it skips the check.
 */

const MIN_WHOLE_WORDS = 4;
const RUN_WORDS = 6;

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO, '..', 'shared', 'data');
const DEV_SET = path.join(DATA_DIR, 'visitor-questions', 'dev.json');
const SELF = fileURLToPath(import.meta.url);

/** Lower-case words: apostrophes dropped ("what's" → "whats"), every other mark a space, string escapes ("\n") a space. */
export const wordsOf = (text: string) => text.normalize('NFKC').toLowerCase()
  .replace(/\\[nrt]/g, ' ')
  .replace(/['’‘`]/g, '')
  .replace(/[^\p{L}\p{N}]+/gu, ' ')
  .split(' ')
  .filter((word) => word !== '');

interface Question { id: string; text: string }

function devQuestions(file: string): Question[] {
  const set = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    questions: { id: string; question: string; history?: { text: string; fromUser: boolean }[] }[];
  };
  return set.questions.flatMap((q) => [
    { id: q.id, text: q.question },
    ...(q.history ?? []).filter((turn) => turn.fromUser).map((turn) => ({ id: `${q.id} (history)`, text: turn.text })),
  ]);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|json)$/.test(entry.name) ? [full] : [];
  });
}

/** Where a file holds a question: "<file>: <id> «the matched words»". */
function occurrences(files: string[], questions: Question[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const words = wordsOf(fs.readFileSync(file, 'utf8'));
    const joined = ` ${words.join(' ')} `;
    const runs = new Set<string>();
    for (let i = 0; i + RUN_WORDS <= words.length; i++) runs.add(words.slice(i, i + RUN_WORDS).join(' '));
    for (const question of questions) {
      const qWords = wordsOf(question.text);
      let match: string | undefined;
      if (qWords.length >= MIN_WHOLE_WORDS && joined.includes(` ${qWords.join(' ')} `)) match = qWords.join(' ');
      for (let i = 0; match === undefined && i + RUN_WORDS <= qWords.length; i++) {
        const run = qWords.slice(i, i + RUN_WORDS).join(' ');
        if (runs.has(run)) match = run;
      }
      if (match !== undefined) found.push(`${path.relative(REPO, file)}: ${question.id} «${match}»`);
    }
  }
  return found;
}

describe('development-set hygiene', () => {
  it('normalises case, punctuation and spacing', () => {
    expect(wordsOf("  Where's   the\nSTATION,  please?! ")).toEqual(['wheres', 'the', 'station', 'please']);
    expect(wordsOf("'a string'\\n + 'another one'")).toEqual(['a', 'string', 'another', 'one']);
    expect(wordsOf('Où est la gare ?')).toEqual(['où', 'est', 'la', 'gare']);
  });

  it('finds a whole question and a run of six words of a longer one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-set-hygiene-'));
    try {
      const file = path.join(dir, 'example.ts');
      fs.writeFileSync(file, "const a = 'Does the ferry run on Mondays?';\nconst b = 'when the ferry leaves the ' +\n  'harbour at noon';");
      const found = occurrences([file], [
        { id: 'whole', text: 'does the ferry run on mondays' },
        { id: 'run', text: 'Can I see when the ferry leaves the harbour tomorrow?' },
        { id: 'short', text: 'const a' },
        { id: 'none', text: 'Is the ferry late again today?' },
      ]);
      expect(found.map((line) => line.split(': ')[1]!.split(' ')[0])).toEqual(['whole', 'run']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const available = fs.existsSync(DEV_SET);
  const name = 'holds no development-set question in server/src or shared/src';
  it.skipIf(!available)(available ? name : `${name}: skipped, no data at ${DEV_SET} (BENCH_DATA_DIR sets the data folder)`, () => {
    const questions = devQuestions(DEV_SET);
    expect(questions.length).toBeGreaterThan(100);
    const files = [...sourceFiles(path.join(REPO, 'server', 'src')), ...sourceFiles(path.join(REPO, 'shared', 'src'))]
      .filter((file) => path.resolve(file) !== path.resolve(SELF));
    expect(occurrences(files, questions)).toEqual([]);
  });
});
