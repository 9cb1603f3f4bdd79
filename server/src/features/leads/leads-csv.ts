import type { LeadRecord } from './leads.repository.js';

const HEADER = ['createdAt', 'name', 'email', 'phone', 'conversationId', 'pageUrl'];

/**
 * What a spreadsheet may run as a formula: `=`, `+`, `-`, `@` (or their full-width forms, which
 * some locales accept) after any spaces, or a leading tab or CR.
 */
const FORMULA = String.raw`\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r]`;
const STARTS_FORMULA = new RegExp(`^(?:${FORMULA})`);
const SEMICOLON_BEFORE_FORMULA = new RegExp(`;(?=${FORMULA})`, 'g');

/**
 * One CSV cell (RFC 4180). Lead fields come from visitors, so a value a spreadsheet would evaluate
 * as a formula gets a leading `'` (OWASP "CSV injection"). Spreadsheets in locales whose list
 * separator is `;` (Excel in most of Europe) split on `;` instead of `,`: a cell with a `;` is
 * quoted like one with a `,`, and a formula start right after a `;` is defused too, for readers
 * that honour quotes only at a cell's start.
 */
function cell(value: string | null): string {
  if (value === null) return '';
  const safe = (STARTS_FORMULA.test(value) ? `'${value}` : value).replace(SEMICOLON_BEFORE_FORMULA, ";'");
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Leads as CSV text with a header row, CRLF line ends. */
export function toLeadsCsv(records: readonly LeadRecord[]): string {
  const lines = [HEADER.join(',')];
  for (const lead of records) {
    lines.push([new Date(lead.createdAt).toISOString(), lead.name, lead.email, lead.phone, lead.conversationId, lead.pageUrl].map(cell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
