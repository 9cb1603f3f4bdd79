import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDocx, makePptx, zip } from './ingestion/fixtures/make-documents.js';
import { sniffDocument, sniffTextFormat } from './sniff-document.js';

async function sniff(content: Buffer | string): Promise<string | undefined> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sniff-'));
  try {
    const file = path.join(dir, 'upload');
    await fs.writeFile(file, content);
    return await sniffDocument(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('sniffing documents by content', () => {
  it('tells Word documents and slides by their zip entries, and refuses other zips', async () => {
    expect(await sniff(await makeDocx([{ paragraph: 'Hello' }]))).toBe('DOCX');
    expect(await sniff(await makePptx([{ title: 'Hello', bullets: [] }]))).toBe('PPTX');
    expect(await sniff(await zip({ 'photo.jpg': 'not really' }))).toBeUndefined();
  });

  it('tells HTML, Markdown, CSV and plain text apart', () => {
    expect(sniffTextFormat('<!-- saved page -->\n<!DOCTYPE html><html><body>Hi</body></html>')).toBe('HTML');
    expect(sniffTextFormat('<p>Just a fragment</p>')).toBe('HTML');
    expect(sniffTextFormat('# FAQ\n\nWe open at nine.')).toBe('MARKDOWN');
    expect(sniffTextFormat('Opening times\n\n- Monday\n- Tuesday\n\nSee [our page](https://example.com).')).toBe('MARKDOWN');
    expect(sniffTextFormat('Product,Price\nBread,£4\nCake,£3\n')).toBe('CSV');
    expect(sniffTextFormat('Product;Price\n"Bread; rye";4,50\nCake;3,00\n')).toBe('CSV');
    expect(sniffTextFormat('We open at nine, close at five.\nOn Sundays we rest, mostly.\nCall us any time.')).toBe('PLAIN_TEXT');
  });

  it('refuses binaries, text in another encoding and empty files', async () => {
    expect(await sniff(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBeUndefined();
    expect(await sniff(Buffer.from('Caf\u00e9 cr\u00e8me', 'latin1'))).toBeUndefined();
    expect(await sniff('')).toBeUndefined();
    expect(await sniff('\uFEFFCafé crème, with a BOM')).toBe('PLAIN_TEXT');
  });
});
