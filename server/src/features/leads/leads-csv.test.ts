import { describe, expect, it } from 'vitest';
import { toLeadsCsv } from './leads-csv.js';

const lead = (fields: Partial<Parameters<typeof toLeadsCsv>[0][number]>) => ({
  id: 'x', organisationId: 'o', chatbotId: 'c', conversationId: null, createdAt: 0, name: null, email: null, phone: null, pageUrl: null, ...fields,
});

/** The cells of one CSV line as a spreadsheet splitting on `separator` reads them (quotes group, `""` is a quote). */
function cellsAs(line: string, separator: ',' | ';'): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') { current += '"'; i += 1; } else if (char === '"') quoted = false; else current += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) { cells.push(current); current = ''; } else current += char;
  }
  return [...cells, current];
}

/** What a spreadsheet may run as a formula: `=`, `+`, `-`, `@` (or their full-width forms) after any spaces, or a leading tab or CR. */
const FORMULA_START = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

describe('toLeadsCsv', () => {
  it('writes a header and one CRLF line per lead, quoting commas, quotes and line breaks', () => {
    expect(toLeadsCsv([lead({ name: 'Doe, "Jane"\nSales', email: 'jane@example.com' })])).toBe(
      'createdAt,name,email,phone,conversationId,pageUrl\r\n1970-01-01T00:00:00.000Z,"Doe, ""Jane""\nSales",jane@example.com,,,\r\n',
    );
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    const csv = toLeadsCsv([lead({ name: '=HYPERLINK("x")', phone: '+44 20 7946 0958', email: '@sum', pageUrl: 'https://shop.example/a' })]);
    expect(csv.split('\r\n')[1]).toBe(`1970-01-01T00:00:00.000Z,"'=HYPERLINK(""x"")",'@sum,'+44 20 7946 0958,,https://shop.example/a`);
  });

  it.each([',', ';'] as const)('leaves no cell that starts a formula when a spreadsheet splits on %j', (separator) => {
    const hostile = [
      'Jane;=HYPERLINK("https://evil.example","x")', 'a;+1', 'a;-1', 'a;@SUM(1)', 'a;\t=1', 'a;\r=1', 'a,b;=1',
      '=1;2', '\t=1', '\r=1', '-2+3', ' =1', '\uFF1D1+1', 'a;\uFF1D1', 'plain; text',
    ];
    const csv = toLeadsCsv(hostile.map((name) => lead({ name, email: `${name}@example.com`, phone: name, pageUrl: name })));
    const lines = csv.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(hostile.length);
    for (const line of lines) {
      const cells = cellsAs(line, separator);
      for (const value of cells) expect(value, `${JSON.stringify(line)} split on ${separator}`).not.toMatch(FORMULA_START);
      // Every semicolon is inside quotes: split on `;`, the line stays one cell.
      expect(cells).toHaveLength(separator === ',' ? 6 : 1);
    }
    // A reader that honours quotes only at a cell's start splits inside them on `;`: what follows one is defused too.
    if (separator === ';') {
      for (const value of lines.flatMap((line) => line.split(';'))) expect(value).not.toMatch(FORMULA_START);
    }
  });

  it('quotes a cell with a semicolon as it quotes one with a comma', () => {
    const csv = toLeadsCsv([lead({ name: 'Doe; Jane', email: 'a,b;c' })]);
    expect(csv.split('\r\n')[1]).toBe('1970-01-01T00:00:00.000Z,"Doe; Jane","a,b;c",,,');
  });
});
