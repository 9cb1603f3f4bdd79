import { describe, expect, it } from 'vitest';
import { toLeadsCsv } from './leads-csv.js';

const lead = (fields: Partial<Parameters<typeof toLeadsCsv>[0][number]>) => ({
  id: 'x', organisationId: 'o', chatbotId: 'c', conversationId: null, createdAt: 0, name: null, email: null, phone: null, pageUrl: null, ...fields,
});

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
});
