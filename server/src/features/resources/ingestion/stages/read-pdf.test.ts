import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../fixtures/make-pdf.js';
import { NoTextFoundError } from '../ingestion-types.js';
import { withParser } from '../sandbox/parser-process.js';
import { chunkSections } from './chunk-text.js';
import { readPdf, type ReadPdfOptions } from './read-pdf.js';

const LIMITS = { timeoutMs: 60_000, memoryMb: 1024 };
let dir: string;
let scan: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-read-pdf-'));
  scan = path.join(dir, 'scan.pdf');
  await fs.writeFile(scan, makePdf([{ scan: 'The first page is about tea.' }, { scan: 'The second page is about coffee.' }]));
});
afterAll(async () => { await fs.rm(dir, { recursive: true, force: true }); });

const read = (options: Omit<ReadPdfOptions, 'parser'>, signal?: AbortSignal) =>
  withParser(LIMITS, signal, (parser) => readPdf(scan, { parser, signal, ...options }));

describe('readPdf', () => {
  it('reads at most maxOcrPages pages by OCR and says so, reporting its progress', async () => {
    const logged: string[] = [];
    const progress: number[] = [];
    const output = await read({ maxOcrPages: 1, log: (message) => logged.push(message), progress: (fraction) => progress.push(fraction) });
    expect(output.sections).toEqual([{ provenance: { page: 1 }, units: [{ text: 'The first page is about tea.' }] }]);
    expect(logged).toEqual(['OCR page limit reached: the remaining pages without text are not read']);
    expect(progress).toEqual([0, 1]);
  }, 90_000);

  it('stops OCR when the time of the whole file is spent, keeping the pages read', async () => {
    // A virtual clock: every page's OCR "takes" 400 s against a budget of 600 s.
    let clock = 0;
    const logged: string[] = [];
    const output = await read({
      maxOcrMs: 600_000, now: () => clock, log: (message) => logged.push(message), progress: (fraction) => { if (fraction > 0) clock += 400_000; },
    });
    expect(output.sections.map((section) => section.provenance.page)).toEqual([1, 2]);
    clock = 0;
    const one = await read({ maxOcrMs: 300_000, now: () => clock, log: (message) => logged.push(message), progress: (fraction) => { if (fraction > 0) clock += 400_000; } });
    expect(one.sections.map((section) => section.provenance.page)).toEqual([1]);
    expect(logged).toEqual(['OCR time limit reached: the remaining pages without text are not read']);
  }, 90_000);

  it('ends with no text when OCR is turned off', async () => {
    await expect(read({ maxOcrPages: 0 })).rejects.toEqual(new NoTextFoundError('the PDF has no text layer and OCR is turned off'));
  }, 90_000);

  it("stops at the abort signal, during a page's OCR or between pages", async () => {
    // Aborted when the progress reaches `at`: as the first page's OCR starts, then once it is read
    // (a timer raced the OCR, which a fast machine finished first). The job ends with the abort's reason.
    for (const at of [0, 0.5]) {
      const aborted = new AbortController();
      const progress = (fraction: number) => { if (fraction === at) aborted.abort(new Error('the job was cancelled')); };
      await expect(read({ progress }, aborted.signal), `aborted at ${at}`).rejects.toThrow('the job was cancelled');
    }
  }, 90_000);

  it('reads a price list printed by Chromium as a table: each row under its header, a wrapped cell whole', async () => {
    const html = path.join(dir, 'prices.html');
    const pdf = path.join(dir, 'prices.pdf');
    await fs.writeFile(html, `<!doctype html><meta charset="utf-8"><style>body{font:12pt sans-serif} td,th{padding:6px 10px;text-align:left}</style>
      <h2>Workshop prices</h2><p>All prices include parts unless we say otherwise.</p>
      <table><tr><th>Job</th><th>Price</th></tr><tr><td>Puncture repair</td><td>£12</td></tr>
      <tr><td style="width:180px">Wheel truing, brake bleed and gear indexing on both wheels</td><td>£48</td></tr><tr><td>Chain fitted</td><td>£25</td></tr></table>
      <p>Collect your bike within 14 days.</p>`);
    await new Promise<void>((resolve, reject) => {
      execFile('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, `file://${html}`],
        { timeout: 60_000 }, (err) => (err ? reject(err) : resolve()));
    });
    const output = await withParser(LIMITS, undefined, (parser) => readPdf(pdf, { parser }));
    const [chunk] = chunkSections(output.sections);
    expect(chunk!.content).toContain([
      '# Workshop prices', 'All prices include parts unless we say otherwise.', 'Job: Puncture repair; Price: £12',
      'Job: Wheel truing, brake bleed and gear indexing on both wheels; Price: £48', 'Job: Chain fitted; Price: £25', 'Collect your bike within 14 days.',
    ].join('\n'));
  }, 90_000);
});
