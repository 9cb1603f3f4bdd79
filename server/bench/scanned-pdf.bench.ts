import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makePdf } from '../src/features/resources/ingestion/fixtures/make-pdf.js';
import { withParser } from '../src/features/resources/ingestion/sandbox/parser-process.js';
import { readPdf } from '../src/features/resources/ingestion/stages/read-pdf.js';
import { fmt, type Benchmark, type BenchContext } from './bench-kit.js';
import { loadSquadText } from './squad-corpus.js';

/** The service's default parser limits (PARSE_TIMEOUT_MS, PARSE_MEMORY_MB). */
const LIMITS = { timeoutMs: 120_000, memoryMb: 1024 };

/** Edit distance between two sequences (characters or words), in O(n) memory. */
function editDistance<T>(a: readonly T[], b: readonly T[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** Character and word accuracy (1 − edit distance / reference length), whitespace normalised. */
function accuracy(reference: string, read: string): { characters: number; words: number } {
  const [ref, hyp] = [reference, read].map((text) => text.replace(/\s+/g, ' ').trim()) as [string, string];
  return {
    characters: 1 - editDistance([...ref], [...hyp]) / ref.length,
    words: 1 - editDistance(ref.split(' '), hyp.split(' ')) / ref.split(' ').length,
  };
}

/** Reads a PDF as ingestion does (parser child, text layer then OCR); returns the seconds and the page texts. */
async function timedRead(filePath: string): Promise<{ seconds: number; pages: Map<number, string> }> {
  const started = performance.now();
  const output = await withParser(LIMITS, undefined, (parser) => readPdf(filePath, { parser }));
  const seconds = (performance.now() - started) / 1000;
  return { seconds, pages: new Map(output.sections.map((section) => [section.provenance.page!, section.units.map((unit) => unit.text).join('\n')])) };
}

/** OCR of `texts` scanned `tilt` degrees askew: seconds and mean accuracy. */
async function ocrRun(dir: string, texts: string[], tilt: number) {
  const file = path.join(dir, `scan-${tilt}.pdf`);
  await fs.writeFile(file, makePdf(texts.map((scan) => ({ scan, tilt }))));
  const { seconds, pages } = await timedRead(file);
  const scores = texts.map((reference, i) => accuracy(reference, pages.get(i + 1) ?? ''));
  const mean = (key: 'characters' | 'words') => `${fmt((scores.reduce((sum, score) => sum + score[key], 0) / scores.length) * 100)}%`;
  return { seconds, characters: mean('characters'), words: mean('words') };
}

async function run(ctx: BenchContext): Promise<void> {
  const count = ctx.full ? 30 : 6;
  // Pages of two ASCII SQuAD paragraphs (about 250 words, a dense page); Helvetica has no glyphs beyond Latin-1.
  const paragraphs = (await loadSquadText()).paragraphs.filter((text) => /^[\x20-\x7e]+$/.test(text));
  const page = (i: number) => `${paragraphs[(2 * i) % paragraphs.length]} ${paragraphs[(2 * i + 1) % paragraphs.length]}`;
  const texts = Array.from({ length: count }, (_, i) => page(i));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-bench-ocr-'));
  try {
    // Baseline: the text-layer reader in the same kind of parser child, on ten times the pages so
    // that starting the child does not hide its rate.
    const textPdf = path.join(dir, 'text.pdf');
    await fs.writeFile(textPdf, makePdf(Array.from({ length: count * 10 }, (_, i) => page(i))));
    const text = await timedRead(textPdf);
    const textRate = (count * 10) / text.seconds;
    ctx.report(`text layer, ${count * 10} pages (baseline)`, { seconds: fmt(text.seconds), 'pages/s': fmt(textRate, 1) });
    for (const tilt of [0, 2]) {
      const ocr = await ocrRun(dir, texts, tilt);
      ctx.report(`OCR of ${count} 150-DPI scans${tilt ? `, ${tilt}° askew` : ''}`, {
        seconds: fmt(ocr.seconds), 'pages/s': fmt(count / ocr.seconds), 'text-layer/OCR': fmt(textRate / (count / ocr.seconds), 0),
        characters: ocr.characters, words: ocr.words,
      });
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Scanned PDFs (issue 13, item 5): OCR pages/s through the parser child (rendering with pdf.js,
 * tesseract.js), against the text-layer reader on the same pages in the same run, and OCR's
 * character and word accuracy. The database plays no part, so it runs once.
 */
export const benchmark: Benchmark = {
  name: 'Scanned PDFs: OCR pages/s and accuracy',
  databases: ['pglite'],
  run,
};
