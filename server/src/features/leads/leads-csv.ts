import type { LeadRecord } from './leads.repository.js';

const HEADER = ['createdAt', 'name', 'email', 'phone', 'conversationId', 'pageUrl'];

/**
 * One CSV cell (RFC 4180). A value a spreadsheet would evaluate as a formula (`=`, `+`, `-`, `@`,
 * tab, CR) gets a leading `'`: lead fields come from visitors (OWASP "CSV injection").
 */
function cell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Leads as CSV text with a header row, CRLF line ends. */
export function toLeadsCsv(records: readonly LeadRecord[]): string {
  const lines = [HEADER.join(',')];
  for (const lead of records) {
    lines.push([new Date(lead.createdAt).toISOString(), lead.name, lead.email, lead.phone, lead.conversationId, lead.pageUrl].map(cell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
