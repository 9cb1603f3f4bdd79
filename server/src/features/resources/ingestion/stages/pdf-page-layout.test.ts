import { describe, expect, it } from 'vitest';
import { segmentText } from '@parley/shared/text';
import { layOut, pageText as layoutText, typeSizes, type PdfTextItem, type TypeSizes } from './pdf-page-layout.js';

/** A page's text from its items. */
const pageText = (items: PdfTextItem[], sizes?: TypeSizes) => layoutText(layOut(items), sizes);

/** Points a character of 10-point Helvetica takes, about. */
const CHAR = 5;

/** A text item as pdf.js reports one: `text` at (x, y), 10 points high. */
const at = (text: string, x: number, y: number, hasEOL = false): PdfTextItem => ({ str: text, x, y, width: text.length * CHAR, size: 10, hasEOL });
/** The blank pdf.js writes across a gap, ending a line or not. */
const blank = (x: number, y: number, hasEOL = false): PdfTextItem => ({ str: hasEOL ? '' : ' ', x, y, width: 0, size: 10, hasEOL });

/** Rows written row after row, each cell at its column's left edge (a blank across each gap, a line end after each row). */
function table(rows: string[][], columns: number[], top: number, spacing = 20): PdfTextItem[] {
  return rows.flatMap((cells, r) => {
    const y = top - r * spacing;
    return [...cells.flatMap((cell, c) => (c === 0 ? [at(cell, columns[c]!, y)] : [blank(columns[c - 1]! + cells[c - 1]!.length * CHAR, y), at(cell, columns[c]!, y)])), blank(columns[0]!, y - spacing, true)];
  });
}

describe('PDF page layout', () => {
  it('writes a price list as a table under its header, and the text around it as before', () => {
    const items = [
      at('Our prices', 50, 700, true),
      at('Prices include VAT. Parts are extra and', 50, 680, true),
      at('quoted first.', 50, 666, true),
      ...table([['Service', 'Price'], ['Basic tune-up', '£45'], ['Full service with new cables', '£95']], [50, 400], 640),
      at('Book at the counter.', 50, 560),
    ];
    const text = pageText(items);
    expect(text).toBe([
      'Our prices', 'Prices include VAT. Parts are extra and', 'quoted first.',
      '| Service | Price |', '| Basic tune-up | £45 |', '| Full service with new cables | £95 |', 'Book at the counter.',
    ].join('\n'));
    expect(segmentText(text).map(({ text: sentence, kind }) => `${kind}: ${sentence}`)).toEqual([
      'paragraph: Prices include VAT.', 'paragraph: Parts are extra and quoted first.',
      'row: Service: Basic tune-up; Price: £45',
      'row: Service: Full service with new cables; Price: £95',
      'paragraph: Book at the counter.',
    ]);
  });

  it('gives a table whose first row holds figures an empty header, so that no row is lost as one', () => {
    const text = pageText(table([['Puncture repair', '£12'], ['Brake pads fitted', '£30']], [50, 400], 640));
    expect(segmentText(text).map((segment) => segment.text)).toEqual(['Puncture repair; £12', 'Brake pads fitted; £30']);
  });

  it('joins a wrapped cell to its row, whether its lines come after the row or inside it', () => {
    // Row after row: the second line of the wide cell comes after its row.
    const rowMajor = [
      ...table([['Month', 'In the box']], [50, 200], 640),
      at('January', 50, 620), blank(85, 620), at('Leeks, kale, swede and', 200, 620, true), at('red cabbage', 200, 606), blank(50, 600, true),
      at('February', 50, 580), blank(90, 580), at('Parsnips', 200, 580), blank(50, 560, true),
    ];
    expect(pageText(rowMajor)).toBe('| Month | In the box |\n| January | Leeks, kale, swede and red cabbage |\n| February | Parsnips |');
    // Cell after cell: each cell's lines in turn, so the first cell's second line comes before the second cell.
    const cellMajor = [
      ...table([['Month', 'In the box']], [50, 200], 640),
      at('March to May', 50, 620, true), at('(the lean weeks)', 50, 606), blank(200, 620, true),
      at('Greens, wild garlic and', 200, 620, true), at('stored roots', 200, 606), blank(50, 590, true),
      at('June', 50, 570), blank(70, 570), at('New potatoes', 200, 570), blank(50, 550, true),
    ];
    expect(pageText(cellMajor)).toBe('| Month | In the box |\n| March to May (the lean weeks) | Greens, wild garlic and stored roots |\n| June | New potatoes |');
  });

  it('gives the first column an empty header when the header names only the columns right of it', () => {
    const text = pageText([
      ...table([['Summer', 'Winter']], [200, 350], 640),
      ...table([['Weekdays', '£40', '£30'], ['Weekends', '£55', '£45']], [50, 200, 350], 620),
    ]);
    expect(segmentText(text).map((segment) => segment.text)).toEqual(['Weekdays; Summer: £40; Winter: £30', 'Weekends; Summer: £55; Winter: £45']);
  });

  it('reads two columns of text side by side as text, not as a table', () => {
    const left = ['Our workshop opens at nine', 'and closes at six on', 'weekdays.'];
    const right = ['Saturday hours are shorter:', 'ten until four, and we', 'close on Sundays.'];
    const items = [
      ...left.map((line, i) => at(line, 50, 700 - 14 * i, true)),
      ...right.map((line, i) => at(line, 320, 700 - 14 * i, true)),
    ];
    expect(pageText(items)).toBe([...left, ...right].join('\n'));
  });

  it('keeps a line with one wide gap, alone, as text', () => {
    expect(pageText([at('Bike Hub, 4 Mill Road', 50, 60), blank(155, 60), at('01632 960999', 450, 60)])).toBe('Bike Hub, 4 Mill Road\n01632 960999');
  });

  it('writes text set larger than the body as headings, one level per size over the whole document', () => {
    const sized = (size: number, text: string, y: number): PdfTextItem => ({ ...at(text, 50, y, true), size });
    const first = [
      sized(18, 'Riverside Cycles Guide', 780), sized(13, 'Servicing', 740), sized(10, 'We service every make of bike.', 720),
      sized(13, 'Hire bikes and', 690), sized(13, 'helmets', 674), sized(10, 'Hire starts at 9am.', 650),
    ];
    const second = [sized(13, 'Returns', 780), sized(10, 'Bring the bike back by 5pm.', 760), sized(14, 'Big sale this week.', 730), sized(10, 'Ask in store.', 710)];
    const sizes = typeSizes([layOut(first), layOut(second)]);
    expect(pageText(first, sizes)).toBe('# Riverside Cycles Guide\n## Servicing\nWe service every make of bike.\n## Hire bikes and helmets\nHire starts at 9am.');
    // The same size is the same level on every page; a sentence in large type is no heading.
    expect(pageText(second, sizes)).toBe('## Returns\nBring the bike back by 5pm.\nBig sale this week.\nAsk in store.');
    expect(segmentText(pageText(first, sizes)).map(({ section, text }) => `${section.join(' › ')}: ${text}`)).toEqual([
      'Riverside Cycles Guide › Servicing: We service every make of bike.', 'Riverside Cycles Guide › Hire bikes and helmets: Hire starts at 9am.',
    ]);
  });
});
