import { describe, expect, it } from 'vitest';
import { parseBlocks, segmentText, splitSentences } from './blocks.js';
import { splitParagraph } from './sentences.js';

describe('splitParagraph', () => {
  it('keeps e-mail addresses, URLs, decimals and abbreviations inside their sentence', () => {
    expect(splitParagraph('Email hello@willowandwick.test. Or see https://shop.test/a.b?c=1 now. Dr. Byrne paid 3.5 euros. J. R. R. Tolkien wrote it! Did he? Yes.'))
      .toEqual(['Email hello@willowandwick.test.', 'Or see https://shop.test/a.b?c=1 now.', 'Dr. Byrne paid 3.5 euros.', 'J. R. R. Tolkien wrote it!', 'Did he?', 'Yes.']);
  });
  it('keeps a reference to an article or section with its number, and ends a sentence at the same word otherwise', () => {
    expect(splitParagraph('Den Vertrag nach Art. 28 DSGVO finden Sie in der App. Siehe auch Abs. 3 und vgl. Ziff. 4.'))
      .toEqual(['Den Vertrag nach Art. 28 DSGVO finden Sie in der App.', 'Siehe auch Abs. 3 und vgl. Ziff. 4.']);
    expect(splitParagraph('See sec. 4 of the terms. We love art. Our shop opens at 10am.'))
      .toEqual(['See sec. 4 of the terms.', 'We love art.', 'Our shop opens at 10am.']);
  });
  it('splits at non-Latin sentence ends', () => {
    expect(splitParagraph('هل تشحنون إلى مصر؟ نعم نشحن.')).toEqual(['هل تشحنون إلى مصر؟', 'نعم نشحن.']);
    expect(splitParagraph('我们发货到欧洲。运费是五欧元。')).toEqual(['我们发货到欧洲。', '运费是五欧元。']);
  });
  it('cuts an over-long sentence at clause boundaries', () => {
    const long = Array.from({ length: 12 }, (_, i) => `clause number ${i} says something fairly long about the topic`).join('; ');
    const pieces = splitParagraph(long);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(400);
  });
});

describe('parseBlocks and segmentText', () => {
  const faq = [
    '# Willow & Wick FAQ', '', 'Our shop is by Montpelier station.', '', '## Opening hours',
    'The Bristol shop is open Tuesday to Saturday,', 'from 10am to 6pm. Email hello@willowandwick.test for help.', '',
    '## Delivery', '- UK orders over £40 ship free.', '- We ship to the EU in 5 days.', '',
    '| Size | Burn time |', '|---|---|', '| Small tin | 20 hours |',
  ].join('\n');

  it('reads a short line standing before a table as its heading', () => {
    expect(segmentText('Opening times are below.\nWorkshop hours\n| Day | Hours |\n| Monday | 9 to 5 |').map(({ text, section }) => [section.join(' › '), text]))
      .toEqual([['', 'Opening times are below.'], ['Workshop hours', 'Day: Monday; Hours: 9 to 5']]);
  });

  it('turns headings into section paths, never into sentence text', () => {
    const segments = segmentText(faq);
    expect(segments.map((s) => s.text)).toEqual([
      'Our shop is by Montpelier station.',
      'The Bristol shop is open Tuesday to Saturday, from 10am to 6pm.',
      'Email hello@willowandwick.test for help.',
      'UK orders over £40 ship free.',
      'We ship to the EU in 5 days.',
      'Size: Small tin; Burn time: 20 hours',
    ]);
    expect(segments[1]!.section).toEqual(['Willow & Wick FAQ', 'Opening hours']);
    expect(segments[3]).toMatchObject({ kind: 'item', section: ['Willow & Wick FAQ', 'Delivery'] });
    expect(segments[5]!.kind).toBe('row');
  });

  it('reads rows written as "Header: value; Header: value" lines back as rows, one each', () => {
    const chunk = '# Plans\nAll prices are per workspace.\nPlan: Free; Price: $0; Seats: 1\nPlan: Growth; Price: $199 per month; Seats: 10\nSee the FAQ: it helps; really.';
    const segments = segmentText(chunk);
    expect(segments.map((s) => [s.kind, s.text])).toEqual([
      ['paragraph', 'All prices are per workspace.'],
      ['row', 'Plan: Free; Price: $0; Seats: 1'],
      ['row', 'Plan: Growth; Price: $199 per month; Seats: 10'],
      ['paragraph', 'See the FAQ: it helps; really.'],
    ]);
  });

  it('reads a short stand-alone title line of plain text (a PDF) as a heading', () => {
    const pdf = 'Candle Care Guide\nFire safety\nIf the fire alarm sounds, leave by the nearest exit and do not use\nthe stairs to the cellar bar.';
    const blocks = parseBlocks(pdf);
    expect(blocks.filter((b) => b.kind === 'heading').map((b) => b.text)).toEqual(['Candle Care Guide', 'Fire safety']);
    expect(splitSentences(pdf)).toEqual(['If the fire alarm sounds, leave by the nearest exit and do not use the stairs to the cellar bar.']);
  });
});
